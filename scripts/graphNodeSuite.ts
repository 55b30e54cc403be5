// `npm run graph-node-suite -- --source <graph-node checkout> [--rev <commit>] [--engine local|graph-node|both]
// [--suite integration|runner|both] [--case <name>]`: graph-node's own test suites (tests/integration-tests
// with the assertions of tests/tests/integration_tests.rs; tests/runner-tests with runner_tests.rs) on the
// local node and/or graph-node (testing/graph-node-suite/).
// The checkout is a clone or a bare mirror; its tests/ folder is copied to a scratch folder.
import { fail, parseCli } from "subgraph-workbench/cli";
import { formatSuiteReport, runGraphNodeSuite, suiteCaseNames, suitePassed, type EngineChoice, type SuiteChoice } from "../testing/graph-node-suite/index.js";

const { values } = parseCli({
  source: { type: "string" },
  rev: { type: "string" },
  engine: { type: "string", default: "both" },
  case: { type: "string" },
  suite: { type: "string", default: "both" },
});

if (!values.source) fail("--source <dir>: a checkout of github.com/graphprotocol/graph-node (a clone or a bare mirror)");
const engine = values.engine as EngineChoice;
if (!["local", "graph-node", "both"].includes(engine)) fail(`--engine must be local, graph-node or both, not ${values.engine}`);
const suites = values.suite as SuiteChoice;
if (!["integration", "runner", "both"].includes(suites)) fail(`--suite must be integration, runner or both, not ${values.suite}`);
if (values.case && !suiteCaseNames().includes(values.case)) fail(`no case named ${values.case}; known: ${suiteCaseNames().join(", ")}`);

try {
  const report = await runGraphNodeSuite({ source: values.source, engines: engine, suites, log: (line) => console.log(line), ...(values.rev ? { rev: values.rev } : {}), ...(values.case ? { caseName: values.case } : {}) });
  console.log(formatSuiteReport(report));
  process.exit(suitePassed(report) ? 0 : 1);
} catch (error) {
  fail(error);
}
