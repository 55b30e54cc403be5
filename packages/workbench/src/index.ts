// subgraph-workbench's programmatic entry: the commands' building blocks for a project's own scripts.
// Each part has its own entry too (subgraph-workbench/local-node, /test-runner, /parity, ...).
export { createLocalNode, type LocalNode, type LocalNodeOptions } from "./local-node/index.js";
export { runMatchstick, type RunOptions, type RunSummary } from "./test-runner/index.js";
export { runJsonTests, type JsonTestsOutcome, type RunJsonTestsOptions } from "./gnd-test/index.js";
export { createDevLoop, type DevLoop, type DevLoopOptions } from "./dev-loop/index.js";
export { runParityCase, type ParityCase, type ScenarioContext, type ScenarioResult } from "./parity/index.js";
export { deploySubgraph, type DeploySubgraphParameters } from "./deploy/index.js";
export { buildSubgraph, type BuiltSubgraph } from "./lib/subgraphBuild.js";
export { findGraphCli, SUPPORTED_GRAPH_CLI } from "./lib/graphCli.js";
