// The indexer: one deployment indexer per deployment, mappings run on pre-loaded host threads.
export { createIndexerService } from "./indexerService.js";
export type { IndexerService } from "./indexerService.js";
export { DEFAULT_MAPPING_LIMITS, mappingLimitsFromEnv } from "./hostWorkerClient.js";
export type { MappingLimits } from "./hostWorkerClient.js";
export type { EntityFork } from "./types.js";
export type { FailureTrap } from "./indexerContext.js";
export { currentDeployment, markedLayer } from "./chainOrigin.js";
export type { HandlerProfileRow, ProfileDelta, BucketCounts, EthCallProfileRow } from "./handlerProfile.js";
