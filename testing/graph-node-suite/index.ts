// graph-node's own test suites (github.com/graphprotocol/graph-node, tests/) as a runner of this
// project, on the local node and on graph-node: the cases, contracts and mappings read from a checkout
// at run time, the harness and every assertion restated here.
export { runGraphNodeSuite, suiteCaseNames, type EngineChoice, type SuiteChoice, type SuiteOptions, type SuiteReport } from "./runSuite.js";
export { formatSuiteReport, suitePassed } from "./report.js";
export type { CaseResult, Verdict } from "./runIntegration.js";
