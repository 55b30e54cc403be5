// Differential parity: the same subgraph build on the local node and on the real graph-node, compared
// entity by entity and query by query. Differences either get fixed or are listed, with their reasons, in
// accepted-differences.json.
export { runParityCase, type RunCaseOptions } from "./runCase.js";
export { builtInCases } from "../../../../testing/parity/cases/index.js";
export { readAcceptedDifferences, type AcceptedDifference } from "./accepted.js";
export { formatReport } from "./report.js";
export type { ParityCase, ScenarioContext, ScenarioResult, CaseReport, Difference, CorpusQuery } from "./types.js";
export { realSubgraphs, runRealSubgraph, formatRealSubgraphReport, realSubgraphPassed, type RealSubgraph, type RealSubgraphReport, type EngineChoice } from "../../../../testing/real-subgraphs/index.js";
