// The node's store (subgraph names, versions, deployments, entity tables): what the indexer, the admin
// server and the query and status servers code against.
import type { BlockPtr, EntityChange, EntityData } from "../../wasm-host/index.js";
import type { EntityQuery, EntityQueryResult } from "./entityQuery.js";
import type { CopiedRows, CopyPlan } from "./rowText.js";
import type { LogRecord, SubgraphLogEntry, SubgraphLogQuery } from "./logTypes.js";

export type { BlockPtr, EntityChange, EntityData };

/** An entity a source deployment created (subgraph composition's trigger). */
export interface CreatedEntity {
  block: number;
  entityType: string;
  /** The row's id in its table: the order of the writes within a block, per type. */
  vid: number;
  data: EntityData;
}

/** A block pointer that may also carry what `_meta.block` reports. Extra fields are optional. */
export type BlockPtrWithMeta = BlockPtr & { timestamp?: number; parentHash?: string };

export type DeploymentHealth = "healthy" | "unhealthy" | "failed";

/** graph-node's EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE: when a new version of a name starts to serve. */
export type VersionSwitching = "instant" | "synced";

export interface FatalError {
  message: string;
  block: BlockPtr | null;
  handler: string | null;
  deterministic: boolean;
}

export interface DeploymentRecord {
  /** The IPFS hash of the manifest (Qm...). */
  id: string;
  /** The Postgres schema holding the entity tables: sgd1, sgd2, ... */
  schemaName: string;
  network: string;
  startBlock: number;
  /** The last block whose changes are committed; null before the first commit. */
  latestBlock: BlockPtrWithMeta | null;
  health: DeploymentHealth;
  fatalError: FatalError | null;
  synced: boolean;
  paused: boolean;
  /**
   * The current or pending version of some subgraph name. graph-node unassigns (stops indexing) a
   * deployment no name uses any more: after `subgraph_remove`, or when a new version displaced it.
   */
  assigned: boolean;
  /** The node the deployment is assigned to (graph-node's subgraph_deployment_assignment.node_id). */
  nodeId: string;
  manifest: string;
  schemaSdl: string;
  /**
   * The earliest block queries may ask for: graph-node's earliest_block_number, the block before the
   * start block until pruning moves it up.
   */
  earliestBlock: number;
  /** Blocks of history kept (graph-node's history_blocks; 2147483647: all). */
  historyBlocks: number;
  /** The first block at which a deterministic error is visible (graph-node's first_error_block). */
  firstErrorBlock: number | null;
}

export interface CreateDeploymentInput {
  id: string;
  schemaSdl: string;
  network: string;
  startBlock: number;
  manifest: string;
  /** Entity types file data sources may write (their templates' `mapping.entities`): their tables get a causality region. */
  causalityRegionEntities?: string[];
  /** Blocks of history to keep (graph-node's history_blocks); all when absent. */
  historyBlocks?: number;
  /** Start from this deployment's data as of this block (grafting); the base's history setting applies. */
  graft?: { base: string; block: BlockPtr };
}

/**
 * A change as the indexer hands it over: a file data source's writes carry its causality region
 * (graph-node's isolation of offchain data); absent or 0 is the chain's.
 */
export type RegionEntityChange = EntityChange & { causalityRegion?: number };

/** One block's changes, for committing several blocks in one transaction. */
/** What the indexer journals for a block: the entry's bytes, and the causality regions it has events of. */
export interface PoiJournalEntry {
  entry: Uint8Array;
  regions: string[];
}

/** A journal row: `seq` tells it apart from a row a re-indexed block wrote after a revert. */
export interface PoiJournalRow {
  seq: string;
  block: number;
  entry: Uint8Array;
}

/** The digests a hashed journal row leaves, to be written at its block. */
export interface PoiDigestWrite {
  seq: string;
  block: number;
  changes: EntityChange[];
}

export interface BlockChanges {
  block: BlockPtrWithMeta;
  changes: RegionEntityChange[];
  /** Immutable rows written as COPY lines by the handlers' thread (copyPlan), not among `changes`. */
  copied?: CopiedRows[];
  /** Data sources created by the block's handlers, in creation order. */
  dataSources?: StoredDataSource[];
  /** Created data sources (by creation ordinal, from 0) whose file was processed in this block. */
  doneDataSources?: number[];
  /** Handlers skipped in this block for a deterministic error (`nonFatalErrors`): the deployment becomes unhealthy. */
  nonFatalErrors?: { message: string; handler: string | null }[];
  /** The block's proof-of-indexing journal entry (local-node/poi), kept until it is hashed. */
  poiJournal?: PoiJournalEntry;
}

/** A data source created from a template, as stored with its deployment. */
export interface StoredDataSource {
  /** The template's name. */
  template: string;
  /** The creation parameter: the contract address (lowercase 0x) or, for a file data source, the CID. */
  param: string;
  /** `createWithContext`'s context as the indexer encodes it (JSON text), or null. */
  context: string | null;
  creationBlock: number;
  /** A file data source's causality region (1, 2, ...); 0 or absent for a contract. */
  causalityRegion?: number;
  /** The block in which a file data source's file was processed; null while it waits. */
  doneAt?: number | null;
}

/** When the store prunes history (graph-node's settings of those names). */
export interface PruningPolicy {
  /** ETHEREUM_REORG_THRESHOLD: history must be longer than this to be pruned at all (graph-node: 250). */
  reorgThreshold: number;
  /** GRAPH_STORE_HISTORY_SLACK_FACTOR: how far history may grow past history_blocks before a prune (1.2). */
  slackFactor: number;
}

/** The entity versions a block wrote: sets (each a whole entity) and removals. */
export interface BlockEntityChanges {
  sets: { entityType: string; data: EntityData }[];
  removals: { entityType: string; id: string }[];
}

/** A name's version (the dashboard): which deployment, with which label, current or pending (waiting to sync). */
export interface SubgraphVersionRow {
  name: string;
  deployment: string;
  label: string | null;
  role: "current" | "pending";
}

/** A deployment's tables as Postgres measures them (bytes; rows as the planner estimates them). */
export interface DeploymentSize {
  rowEstimate: bigint;
  tableSize: bigint;
  indexSize: bigint;
  toastSize: bigint;
  totalSize: bigint;
}

export interface NodeStoreOptions {
  /** Set => a pg Pool against this Postgres server. */
  databaseUrl?: string;
  /** PGlite data directory (kept across restarts); undefined => in-memory PGlite. */
  dataDir?: string;
  /** When history is pruned (graph-node's reorg threshold and slack factor); graph-node's defaults otherwise. */
  pruning?: Partial<PruningPolicy>;
}

export interface NodeStore {
  /** Throws SubgraphExistsError when the name is taken. */
  createSubgraph(name: string): Promise<{ id: string }>;
  /** The id of the subgraph with this name, or null. */
  subgraphId(name: string): Promise<string | null>;
  /** Removes the name and its versions (deployments stay, as in graph-node). Throws SubgraphNotFoundError. */
  removeSubgraph(name: string): Promise<void>;
  subgraphExists(name: string): Promise<boolean>;
  /** Idempotent: creates the deployment's schema sgdN with its tables and indexes once. */
  createDeployment(d: CreateDeploymentInput): Promise<DeploymentRecord>;
  /**
   * Records a new version of `name`, switching as graph-node does (`instant`, its default: current at
   * once; `synced`: current when the current one is not synced or the new one is, else pending until
   * promoteIfSynced). Nothing changes when it is already current (instant) or pending (synced).
   * Throws SubgraphNotFoundError / DeploymentNotFoundError.
   */
  setPendingVersion(name: string, deploymentId: string, versionLabel: string | null, switching?: VersionSwitching): Promise<void>;
  /** Every subgraph whose pending version is this deployment switches to it when it is synced. */
  promoteIfSynced(deploymentId: string): Promise<boolean>;
  /** The current deployment id of a subgraph name, or null. */
  resolveName(name: string): Promise<string | null>;
  /** The pending deployment id of a subgraph name, or null. */
  resolvePendingName(name: string): Promise<string | null>;
  getDeployment(id: string): Promise<DeploymentRecord | null>;
  listDeployments(): Promise<DeploymentRecord[]>;
  /** ONE database transaction: the block's entity writes, the block pointer and the recent block hashes. */
  transact(id: string, block: BlockPtrWithMeta, changes: EntityChange[], recentBlocks?: BlockPtr[]): Promise<void>;
  /**
   * The deployment's immutable tables as its handlers may hand their rows in (BlockChanges.copied), or
   * null where the database takes no COPY lines (a Postgres server through pg).
   */
  copyPlan(id: string): Promise<CopyPlan | null>;
  /** Like transact for several consecutive blocks at once; the pointer moves to the last block. */
  transactBlocks(id: string, blocks: BlockChanges[], recentBlocks?: BlockPtr[]): Promise<void>;
  /** Undo every change above block.number and move the pointer to `block`. */
  revertTo(id: string, block: BlockPtrWithMeta): Promise<void>;
  /** The data sources created by the deployment's handlers, in creation order. */
  loadDataSources(id: string): Promise<StoredDataSource[]>;
  /** The block number stored for a hash (pointer or recent blocks), or null: for `block: {hash}`. */
  blockNumberForHash(id: string, hash: string): Promise<number | null>;
  /** The hash stored for a block number (from transact's pointer and recentBlocks), or null. */
  recentBlockHash(id: string, number: number): Promise<string | null>;
  setSynced(id: string, synced: boolean): Promise<void>;
  setPaused(id: string, paused: boolean): Promise<void>;
  /** Assigns the deployment to a node (deploy's and subgraph_reassign's `node_id`). */
  setNodeId(id: string, nodeId: string): Promise<void>;
  /**
   * health := failed, fatalError := error. A deterministic error at a block above the pointer moves
   * the pointer to that block with no entity changes, as graph-node transacts a failed block, so
   * queries at the latest block see the error (`_meta.hasIndexingErrors`, subgraphError: deny).
   */
  /** Marks the deployment failed; a deterministic failure's block keeps `poiJournal` (its proof-of-indexing events). */
  markFailed(id: string, error: FatalError, poiJournal?: PoiJournalEntry): Promise<void>;
  /** Fatal error cleared (a restart after a non-deterministic failure, as graph-node unfails): healthy, or unhealthy with non-fatal errors. */
  markHealthy(id: string): Promise<void>;
  /** The deployment's non-fatal errors (`nonFatalErrors`), first to last, at most 1000. */
  nonFatalErrors(id: string): Promise<FatalError[]>;
  /** The entity as of `block` (default: latest), or null. */
  getEntity(id: string, entityType: string, entityId: string, block?: number): Promise<EntityData | null>;
  /** Entities of `entityType` whose reference `field` points at `entityId` (for loadRelated/derived fields). */
  getDerived(id: string, entityType: string, field: string, entityId: string, block?: number): Promise<EntityData[]>;
  /** Current entities across all types of the deployment. */
  /** Entities at the head, or as of `block` (null: no pointer yet, so none). */
  entityCount(id: string, block?: number | null): Promise<number>;
  /** What a source deployment's immutable types created in blocks `from`..`to`, by block then vid (subgraph composition). */
  entitiesCreatedIn(id: string, entityTypes: string[], from: number, to: number): Promise<CreatedEntity[]>;
  /** The entity versions written at `block` (the status API's entityChangesInBlock). */
  entityChangesInBlock(id: string, block: number): Promise<BlockEntityChanges>;
  /** The deployment's tables as Postgres measures them (the status API's subgraphSize). */
  deploymentSize(id: string): Promise<DeploymentSize>;
  /** Every name's current and pending version (the dashboard). */
  subgraphVersions(): Promise<SubgraphVersionRow[]>;
  /** Entities at the head by type (the dashboard). */
  entityCountsByType(id: string): Promise<Record<string, number>>;
  /** The proof-of-indexing digest of each causality region as of `block` (graph-node's `Poi$` entities). */
  poiDigests(id: string, block: number): Promise<{ region: string; digest: Uint8Array }[]>;
  /** The oldest proof-of-indexing journal entries not hashed yet, in block order: at most `limit.rows`, and `limit.bytes` past the first. */
  poiJournal(id: string, limit: { rows: number; bytes: number }): Promise<PoiJournalRow[]>;
  /**
   * One transaction: the hashed entries leave the journal and their `Poi$` digests are written at their
   * blocks. Answers how many were written: none past an entry that a revert removed meanwhile.
   */
  writePoiDigests(id: string, writes: PoiDigestWrite[]): Promise<number>;
  /** Names of the indexes on the deployment's entity tables (diagnostics, tests). */
  listIndexes(id: string): Promise<string[]>;
  /** Runs a database-free entity query (from the GraphQL layer) as SQL; values come back JSON-ready. */
  queryEntities(id: string, query: EntityQuery): Promise<EntityQueryResult>;
  /** Chain data kept for re-indexing (`--chain-cache`): JSON text by chain id and key. */
  chainCache: {
    read(chainId: number, keys: string[]): Promise<Map<string, string>>;
    write(chainId: number, entries: [key: string, value: string][]): Promise<void>;
    clear(chainId: number): Promise<void>;
  };
  /** Keeps a line of the deployment's log (its mapping's `log.*` calls, the node's own lines about it) for `_logs`. */
  recordLog(id: string, entry: LogRecord): void;
  /** The deployment's log entries `_logs` asks for, every line recorded before the call included. */
  queryLogs(id: string, query: SubgraphLogQuery): Promise<SubgraphLogEntry[]>;
  close(): Promise<void>;
}
