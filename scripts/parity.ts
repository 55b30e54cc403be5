// `npm run parity [-- --case <name>] [-- --root <dir> --scenario <script>]`: the same subgraph on the local
// node and on the real graph-node, compared (parity/). With --root, a subgraph of yours: --scenario names
// a module whose default export deploys contracts on the fresh chain and returns
// `{ address, startBlock, dataSource?, pastBlocks? }`.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { formatReport, KNOWN_DIFFERENCES, readAcceptedDifferences, runParityCase, type ParityCase, type ScenarioResult, type ScenarioContext } from "subgraph-workbench/parity";
import { startHardhatNode } from "../hardhat/chain/index.js";
import { builtInCases } from "../testing/parity/cases/index.js";
import { projectRoot } from "../hardhat/projectRoot.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  case: { type: "string", multiple: true },
  root: { type: "string" },
  scenario: { type: "string" },
  network: { type: "string", default: "localhost" },
});

async function userCase(root: string, scenarioPath: string | undefined): Promise<ParityCase> {
  if (!scenarioPath) fail("--root needs --scenario <script>: a module whose default export deploys your contracts and returns { address, startBlock }");
  const module = (await import(pathToFileURL(resolve(scenarioPath)).href)) as { default?: (context: ScenarioContext) => Promise<ScenarioResult> };
  if (typeof module.default !== "function") fail(`${scenarioPath} has no default export function`);
  return { name: "yours", projectDir: resolve(root), network: values.network, scenario: module.default };
}

try {
  const cases = values.root ? [await userCase(values.root, values.scenario)] : builtInCases().filter((c) => !values.case || values.case.includes(c.name));
  if (cases.length === 0) fail(`no case named ${values.case?.join(", ")}; cases: ${builtInCases().map((c) => c.name).join(", ")}`);
  const accepted = [...KNOWN_DIFFERENCES, ...(await readAcceptedDifferences(resolve(projectRoot, "testing", "parity", "accepted-differences.json")))];
  let open = 0;
  for (const parityCase of cases) {
    const report = await runParityCase(parityCase, { accepted, startChain: () => startHardhatNode(), log: (line) => console.log(line), progress: true });
    console.log(formatReport(report));
    open += report.differences.length;
  }
  console.log(open === 0 ? "parity: no open differences" : `parity: ${open} open difference(s)`);
  process.exit(open === 0 ? 0 : 1);
} catch (error) {
  fail(error);
}
