// What the indexer needs from the store and from a loaded deployment. Structural subsets of the
// store's NodeStore and the manifest loader's LoadedDeployment, so either side can grow freely.
import type { BlockPtr, EntityChange, EntityData, LogLevel } from "../../wasm-host/index.js";
import type { CopiedRows, CopyPlan, EntityQuery, EntityQueryResult, LogRecord, PoiJournalEntry, StoredDataSource } from "../store/index.js";

/** A block pointer with what `_meta.block` reports. */
export type BlockPtrWithMeta = BlockPtr & { timestamp?: number; parentHash?: string };

export interface IndexerDeploymentRecord {
  id: string;
  latestBlock: BlockPtr | null;
  health: "healthy" | "unhealthy" | "failed";
  fatalError: { deterministic?: boolean } | null;
  synced: boolean;
  paused?: boolean;
}

export interface IndexerStore {
  getDeployment(id: string): Promise<IndexerDeploymentRecord | null>;
  transact(id: string, block: BlockPtrWithMeta, changes: EntityChange[], recentBlocks?: BlockPtr[]): Promise<void>;
  /** Several consecutive blocks in one database transaction; the pointer moves to the last. */
  transactBlocks(
    id: string,
    blocks: {
      block: BlockPtrWithMeta;
      changes: (EntityChange & { causalityRegion?: number })[];
      copied?: CopiedRows[];
      dataSources?: StoredDataSource[];
      doneDataSources?: number[];
      nonFatalErrors?: { message: string; handler: string | null }[];
      poiJournal?: PoiJournalEntry;
    }[],
    recentBlocks?: BlockPtr[],
  ): Promise<void>;
  revertTo(id: string, block: BlockPtr): Promise<void>;
  /** Where the store takes immutable rows as COPY lines, its plan for them (the handlers' thread writes them). */
  copyPlan?(id: string): Promise<CopyPlan | null>;
  /** Data sources created by the deployment's handlers, in creation order. */
  loadDataSources(id: string): Promise<StoredDataSource[]>;
  recentBlockHash(id: string, number: number): Promise<string | null>;
  setSynced(id: string, synced: boolean): Promise<void>;
  setPaused(id: string, paused: boolean): Promise<void>;
  promoteIfSynced(deploymentId: string): Promise<boolean>;
  /** `poiJournal` (the block's proof-of-indexing events) is kept at a deterministic failure's block. */
  markFailed(id: string, error: { message: string; block: BlockPtr | null; handler: string | null; deterministic: boolean }, poiJournal?: PoiJournalEntry): Promise<void>;
  /** Clears a fatal error once its cause went away (graph-node's unfail of a non-deterministic error). */
  markHealthy(id: string): Promise<void>;
  getEntity(id: string, entityType: string, entityId: string, block?: number): Promise<EntityData | null>;
  /** Bulk reads (the store's GraphQL entity query); used to check many ids at once. */
  queryEntities?(id: string, query: EntityQuery): Promise<EntityQueryResult>;
  /** What a source deployment's immutable types created in blocks `from`..`to`, by block then vid (subgraph composition). */
  entitiesCreatedIn?(id: string, entityTypes: string[], from: number, to: number): Promise<{ block: number; entityType: string; vid: number; data: EntityData }[]>;
  /** Optional: entities whose `field` references `id` (derived fields). */
  getDerived?(id: string, entityType: string, field: string, entityId: string): Promise<EntityData[]>;
  /** Optional: keeps a line of the deployment's log for `_logs` (the node's log store). */
  recordLog?(id: string, entry: LogRecord): void;
}

export interface IndexedEventHandler {
  event: string;
  handler: string;
  topic0: string;
  receipt: boolean;
  /** `topic1`..`topic3` filters (any of the listed values, lowercase 0x hex); null or absent = any. */
  topic1?: string[] | null;
  topic2?: string[] | null;
  topic3?: string[] | null;
}

/** A `blockHandlers` entry; `filter` null runs it on every block. */
export interface IndexedBlockHandler {
  handler: string;
  filter: null | { kind: "call" } | { kind: "once" } | { kind: "polling"; every: number };
}

/** A `callHandlers` entry: the function's selector and ABI entry, the handler to call. */
export interface IndexedCallHandler {
  function: string;
  handler: string;
  /** Lowercase 0x hex, 4 bytes. */
  selector: string;
  abiFunction: Record<string, unknown>;
}

/** What data sources and templates share. */
export interface IndexedMapping {
  kind: string;
  name: string;
  network: string;
  apiVersion: string;
  abis: Record<string, unknown[]>;
  abiName: string;
  eventHandlers: IndexedEventHandler[];
  blockHandlers?: IndexedBlockHandler[];
  callHandlers?: IndexedCallHandler[];
  wasmModule: WebAssembly.Module;
  /** The module's bytes; with them the host worker caps the mapping's memory (MappingLimits.maxMemoryMb). */
  wasmBytes?: Uint8Array;
}

export interface IndexedDataSource extends IndexedMapping {
  address: string | null;
  startBlock: number;
  /** `source.endBlock`: no triggers after it. */
  endBlock?: number | null;
  /** The manifest's `context` ({key: {type, data}}), for `dataSource.context()`. */
  context?: Record<string, { type: string; data: unknown }> | null;
}

/** A file data source template (`file/ipfs`): created with an IPFS path, its handler gets the file. */
export interface IndexedFileTemplate {
  name: string;
  network: string;
  apiVersion: string;
  /** The entity types its handler may touch. */
  entities: string[];
  handler: string;
  wasmModule: WebAssembly.Module;
  /** As IndexedMapping.wasmBytes. */
  wasmBytes?: Uint8Array;
}

/** A `kind: subgraph` data source: its handlers run on the entities a source deployment creates. */
export interface IndexedSubgraphDataSource {
  name: string;
  network: string;
  apiVersion: string;
  /** The source deployment's id. */
  source: string;
  startBlock: number;
  handlers: { handler: string; entity: string }[];
  context?: Record<string, { type: string; data: unknown }> | null;
  wasmModule: WebAssembly.Module;
  wasmBytes?: Uint8Array;
}

export interface IndexedDeployment {
  id: string;
  schemaSdl: string;
  network: string;
  dataSources: IndexedDataSource[];
  /** The manifest's templates, for `dataSource.create`. */
  templates?: IndexedMapping[];
  /** The manifest's file data source templates. */
  fileTemplates?: IndexedFileTemplate[];
  /** `kind: subgraph` data sources (subgraph composition); a deployment with them has no onchain ones. */
  subgraphDataSources?: IndexedSubgraphDataSource[];
  /** The manifest's `features` (`nonFatalErrors` changes what a handler error does). */
  features?: string[];
  /** The manifest's specVersion: from 0.0.6 the proof of indexing uses graph-node's fast hasher. */
  specVersion?: string;
}

/** Reads a file data source's file (`<cid>[/path]`) from the node's IPFS; null when it is not there. */
export type FileReader = (path: string) => Promise<Uint8Array | null>;

export type Logger = (level: LogLevel, message: string) => void;

/**
 * A deployment's debug fork (local-node/fork's SubgraphFork): the entity another node serves, or null when
 * it has none or it was fetched before; throws when the base cannot answer (a non-deterministic error).
 */
export interface EntityFork {
  fetch(entityType: string, id: string): Promise<EntityData | null>;
}
