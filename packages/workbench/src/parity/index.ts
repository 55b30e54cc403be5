// Differential parity: the same subgraph build on the local node and on the real graph-node, compared
// entity by entity and query by query. Differences either get fixed or are listed, with their reasons, in
// a file of accepted differences. The harness's parts are exported for suites of cases built on it.
export { runParityCase, compareEngines, sortDifferences, type RunCaseOptions, type CaseChain } from "./runCase.js";
export { startLocalEngine, startGraphNodeOracle, type Engine, type EngineOptions, type RunningEngine } from "./engines.js";
export { readAcceptedDifferences, type AcceptedDifference } from "./accepted.js";
export { KNOWN_DIFFERENCES } from "./knownDifferences.js";
export { adminCall, adminStatus, type AdminStatus } from "./admin.js";
export { readAllEntities, type EntityRows } from "./readEntities.js";
export { readDeploymentId, readStatus, waitUntilSettled, type ComparedStatus } from "./status.js";
export { postGraphQL } from "./graphql.js";
export { indexNodeFieldSubjects, indexNodeSchemaSubjects } from "./indexNode.js";
export { firstDifference } from "./diff.js";
export { formatReport } from "./report.js";
export type { ParityCase, ScenarioContext, ScenarioResult, SettleContext, AdminContext, CaseReport, Difference, CorpusQuery } from "./types.js";
