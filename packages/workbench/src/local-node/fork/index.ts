// Debug forks (graph-node's `--fork-base` and `subgraph_deploy {debug_fork}`): a deployment's store reads
// that miss locally are answered by another node's GraphQL, once per entity.
export { createSubgraphFork, type SubgraphFork, type SubgraphForkOptions } from "./subgraphFork.js";
export { parseForkBase, forkEndpoint } from "./forkBase.js";
export { forkQuery, type ForkQuery } from "./forkQuery.js";
export { createDebugForkRecords, type DebugForkRecords } from "./debugForks.js";
export { ForkError, ForkBaseError } from "./errors.js";
