// `subgraph-workbench dev [manifest]`: the hot-reload loop for the subgraph in this folder (dev-loop/),
// against a chain that is already running, until Ctrl-C.
import { join } from "node:path";
import { fail, parseCli } from "../cli/args.js";
import { logStrayErrors } from "../cli/processGuards.js";
import { startChildReaper } from "../cli/childReaper.js";
import { defaultSubgraphName, findSubgraph } from "../cli/subgraphFolder.js";
import { chainChanged, runDevLoop } from "../dev-loop/index.js";
import { defaultPorts } from "../node-services/index.js";

const USAGE = `Usage: subgraph-workbench dev [manifest] [options]

Builds and deploys the subgraph in this folder (or the manifest given) to the local node, then again on
every save of subgraph.yaml, schema.graphql, src/ or abis/. The query URL and GraphiQL stay the same and
follow each new version once it has re-indexed; a failed build prints its error and the last good
version keeps serving. The Matchstick tests of a changed file run after its version serves.
The node keeps the chain's logs, blocks and eth_call answers, so a re-index asks the chain only whether
they are still canonical. A graph node already answering on the admin port is used instead.

Options:
  --ethereum-rpc <url>   the chain (default ETHEREUM_RPC, else http://127.0.0.1:8545); it must be running
  --network <name>       the networks.json entry to build for (default localhost)
  --name <name>          the subgraph's name (default SUBGRAPH_NAME, else local/<package name>)
  --data-dir <dir>       the node's files (default .data beside the manifest); dropped when the chain
                         is another one than the data was indexed from
  --postgres             a real PostgreSQL server from npm instead of embedded PGlite
  --debounce <ms>        wait this long after a save for more (default 150)
  --query-port, --admin-port, --ipfs-port, --status-port <n>   (default 8000, 8020, 5001, 8030)
  -h, --help             this help

Examples:
  npx hardhat node & npx subgraph-workbench dev
  npx subgraph-workbench dev subgraph.yaml --ethereum-rpc http://127.0.0.1:8545 --network localhost
`;

const { values, positionals } = parseCli(
  {
    "ethereum-rpc": { type: "string" },
    network: { type: "string", default: "localhost" },
    name: { type: "string" },
    "data-dir": { type: "string" },
    postgres: { type: "boolean", default: false },
    debounce: { type: "string", default: "150" },
    "query-port": { type: "string", default: String(defaultPorts.query) },
    "admin-port": { type: "string", default: String(defaultPorts.admin) },
    "ipfs-port": { type: "string", default: String(defaultPorts.ipfs) },
    "status-port": { type: "string", default: String(defaultPorts.status) },
  },
  process.argv.slice(2),
  USAGE,
);

function count(flag: string, raw: string, min = 0): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${flag} must be a whole number >= ${min}, got ${raw}`);
  return n;
}
// The loop prints and polls the URLs it was given: a port picked by the system (0) would not be known.
const port = (flag: string) => count(flag, values[flag as "query-port"], 1);

// A stray error is logged and the loop keeps watching; whatever ends this process ends the database
// server it started.
logStrayErrors();
if (values.postgres) startChildReaper();

try {
  if (positionals.length > 1) fail(`dev takes one manifest, got ${positionals.join(" ")}`);
  const { dir } = findSubgraph(positionals[0]);
  const ethereumRpc = values["ethereum-rpc"] ?? process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545";
  const dataDir = values["data-dir"] ?? join(dir, ".data");
  await runDevLoop({
    dir,
    name: values.name ?? defaultSubgraphName(dir),
    ethereumRpc,
    dataDir,
    postgres: values.postgres,
    network: values.network,
    ports: { query: port("query-port"), admin: port("admin-port"), ipfs: port("ipfs-port"), status: port("status-port") },
    prepare: async (log) => {
      const reset = await chainChanged(ethereumRpc, dataDir);
      if (reset) log(`the chain at ${new URL(ethereumRpc).origin} is not the one ${dataDir} was indexed from`);
      return { reset };
    },
    debounceMs: count("debounce", values.debounce),
    log: (line) => console.log(line),
  });
} catch (error) {
  fail(error);
}
