export { createNodeStore, createNodeStoreTemplate } from "./nodeStore.js";
export type {
  NodeStore, NodeStoreOptions, VersionSwitching, PoiDigestWrite, PoiJournalEntry, PoiJournalRow, DeploymentRecord, DeploymentHealth, FatalError, CreateDeploymentInput, BlockChanges, BlockPtrWithMeta, StoredDataSource,
} from "./types.js";
export type { EntityQuery, EntityQueryResult, EntityFilter, EntityOrder, Selection, ChildQuery, FilterOp, ResultObject } from "./entityQuery.js";
export { StoreError, SubgraphExistsError, SubgraphNotFoundError, DeploymentNotFoundError, maskDatabaseUrl } from "./errors.js";
export { DEFAULT_PRUNING_POLICY, earliestAfterWrites } from "./pruning.js";
export { BLOCK_MAX } from "./layout.js";
export type { CopiedRows, CopyPlan, CopyTable } from "./rowText.js";

export type { PruningPolicy } from "./types.js";
export { createThrowawayDatabase, testServerUrl } from "./testDatabase.js";
export type { TestBackend } from "./testDatabase.js";
export type { FilterScalar } from "./entityQuery.js";
export type { BlockPtr } from "./types.js";
export type { SubgraphLogEntry, SubgraphLogLevel, SubgraphLogQuery } from "./subgraphLogs.js";
export type { LogRecord } from "./logRecorder.js";
export type { BlockEntityChanges, DeploymentSize, SubgraphVersionRow } from "./types.js";
export type { CreatedEntity } from "./sourceEntities.js";
