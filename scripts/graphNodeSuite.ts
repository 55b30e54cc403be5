// `npm run graph-node-suite -- --source <graph-node checkout> [--rev <commit>] [--engine local|graph-node|both]
// [--case <name>]`: graph-node's own integration suite (tests/integration-tests with the assertions of
// tests/tests/integration_tests.rs) on the local node and/or graph-node (testing/graph-node-suite/).
// The checkout is a clone or a bare mirror; its tests/ folder is copied to a scratch folder.
import { fail, parseCli } from "subgraph-workbench/cli";
import { formatSuiteReport, runGraphNodeSuite, suiteCaseNames, suitePassed, type EngineChoice } from "../testing/graph-node-suite/index.js";

const { values } = parseCli({
  source: { type: "string" },
  rev: { type: "string" },
  engine: { type: "string", default: "both" },
  case: { type: "string" },
});

if (!values.source) fail("--source <dir>: a checkout of github.com/graphprotocol/graph-node (a clone or a bare mirror)");
const engine = values.engine as EngineChoice;
if (!["local", "graph-node", "both"].includes(engine)) fail(`--engine must be local, graph-node or both, not ${values.engine}`);
if (values.case && !suiteCaseNames().includes(values.case)) fail(`no case named ${values.case}; known: ${suiteCaseNames().join(", ")}`);

try {
  const report = await runGraphNodeSuite({ source: values.source, engines: engine, log: (line) => console.log(line), ...(values.rev ? { rev: values.rev } : {}), ...(values.case ? { caseName: values.case } : {}) });
  console.log(formatSuiteReport(report));
  process.exit(suitePassed(report) ? 0 : 1);
} catch (error) {
  fail(error);
}
