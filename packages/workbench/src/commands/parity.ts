// `subgraph-workbench parity --scenario <script> [manifest]`: this subgraph on the local node and on the
// real graph-node from npm, on the same chain, compared entity by entity and query by query (parity/).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { fail, parseCli } from "../cli/args.js";
import { findSubgraph } from "../cli/subgraphFolder.js";
import { genesisHash } from "../dev-loop/index.js";
import { formatReport, KNOWN_DIFFERENCES, readAcceptedDifferences, runParityCase, type ScenarioContext, type ScenarioResult } from "../parity/index.js";

const USAGE = `Usage: subgraph-workbench parity --scenario <script> [manifest] [options]

Builds the subgraph in this folder (or the manifest given) once with the project's graph-cli, runs your
scenario on the chain, indexes the build on both the local node and the real graph-node (from npm, on an
embedded PostgreSQL), and compares their entities (now and at past blocks), a generated query corpus,
the indexing status and the proofs of indexing. Exit code 0 when nothing differs, 1 otherwise.

The scenario is a module whose default export deploys your contracts and sends transactions:
  export default async function ({ chainUrl, addFile }) {
    // ... deploy, send transactions through chainUrl ...
    return { address, startBlock, dataSource: "MyContract", pastBlocks: [12] };
  }
The address and start block go into a private networks.json for the build; the project's files are
never changed.

Options:
  --scenario <script>    the scenario module (.js or .mjs; .ts where Node strips types)
  --ethereum-rpc <url>   the chain (default ETHEREUM_RPC, else http://127.0.0.1:8545); it must be running
  --network <name>       the manifest's network (default localhost)
  --accepted <file>      a JSON list of differences to accept beyond the local node's known ones
                         ([{ "case": "yours" or "*", "subject": "query:...", "reason": "..." }])
  -h, --help             this help

Example:
  npx subgraph-workbench parity --scenario scripts/parityScenario.mjs
`;

const { values, positionals } = parseCli(
  {
    scenario: { type: "string" },
    "ethereum-rpc": { type: "string" },
    network: { type: "string", default: "localhost" },
    accepted: { type: "string" },
  },
  process.argv.slice(2),
  USAGE,
);

try {
  if (!values.scenario) fail("parity needs --scenario <script>: a module whose default export deploys your contracts and returns { address, startBlock }");
  const { dir } = findSubgraph(positionals[0]);
  const module = (await import(pathToFileURL(resolve(values.scenario)).href)) as { default?: (context: ScenarioContext) => Promise<ScenarioResult> };
  if (typeof module.default !== "function") fail(`${values.scenario} has no default export function`);
  const chainUrl = values["ethereum-rpc"] ?? process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545";
  await genesisHash(chainUrl);
  // The local node's known differences from graph-node, and the project's own list.
  const accepted = [...KNOWN_DIFFERENCES, ...(values.accepted ? await readAcceptedDifferences(resolve(values.accepted)) : [])];
  const report = await runParityCase(
    { name: "yours", projectDir: dir, network: values.network, scenario: module.default },
    // The user's chain stays up: the harness only indexes it.
    { accepted, startChain: async () => ({ url: chainUrl, stop: async () => {} }), log: (line) => console.log(line) },
  );
  console.log(formatReport(report));
  const open = report.differences.length;
  console.log(open === 0 ? "parity: no open differences" : `parity: ${open} open difference(s)`);
  process.exit(open === 0 ? 0 : 1);
} catch (error) {
  fail(error);
}
