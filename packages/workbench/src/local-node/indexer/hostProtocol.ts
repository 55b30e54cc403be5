// Messages between the indexer (main thread, owns the store and the RPC client) and the host worker
// (runs the WASM mappings). Handlers are synchronous, so the worker asks for store reads and
// ethereum.call over a dedicated port and blocks on Atomics.wait until the answer is posted.
import type {
  BlockPtr,
  EntityChange,
  EntityData,
  EthereumBlockInput,
  EthereumCallInput,
  EthereumCallRequest,
  EthereumEventInput,
  EthereumTransactionInput,
  EthereumValue,
  LogLevel,
} from "../../wasm-host/index.js";
import type { PoiVersion } from "../poi/index.js";
import type { ProfileDelta } from "./handlerProfile.js";
import type { WasmFrame } from "../../lib/wasmStack.js";
// Types only: the store itself never loads in the handlers' thread.
import type { CopiedRows, CopyPlan, PoiJournalEntry } from "../store/index.js";

export interface WorkerDataSource {
  name: string;
  wasmModule: WebAssembly.Module;
  /** The module's bytes: the worker compiles them again with its memory capped (else runs `wasmModule` as is). */
  wasmBytes?: Uint8Array;
  apiVersion: string;
  /** Lowercase 0x address, "" when none. */
  address: string;
  network: string;
  /** `dataSource.context()`; null = empty. */
  context?: EntityData | null;
  /** Template names `dataSource.create` accepts (graph-node fails on others). */
  templates?: string[];
}

/** A data source template: what `dataSource.create` instantiates. */
export interface WorkerTemplate {
  name: string;
  wasmModule: WebAssembly.Module;
  /** As WorkerDataSource.wasmBytes. */
  wasmBytes?: Uint8Array;
  apiVersion: string;
  network: string;
  /** A file data source template (`file/ipfs`): created with an IPFS path, its handler gets the file. */
  file?: { handler: string; entities: string[] };
}

/** A change with the causality region of the data source that wrote it (0 or absent: the chain's). */
export type RegionEntityChange = EntityChange & { causalityRegion?: number };

/** A data source created by a handler, as the worker reports it with its block's result. */
export interface CreatedDataSource {
  /** Its index in the deployment's data source list (static ones first, then created in order). */
  index: number;
  template: string;
  /** The creation parameter: a lowercase 0x address (or a CID for a file data source). */
  param: string;
  context: EntityData | null;
  creationBlock: number;
  /** A file data source's causality region (1, 2, ...); absent for a contract. */
  causalityRegion?: number;
  /** A file data source: the block its file was processed in, null while it waits for the file. */
  doneAt?: number | null;
}

export interface WorkerInit {
  schemaSdl: string;
  /** Static data sources in manifest order. */
  dataSources: WorkerDataSource[];
  templates: WorkerTemplate[];
  /** Data sources created earlier (reloaded from the store), in creation order, after `dataSources`. */
  created: CreatedDataSource[];
  /** Int32Array(1) over it: 0 = waiting, 1 = an answer was posted on `port`. */
  signal: SharedArrayBuffer;
  port: MessagePort;
  /** Clean entities kept between batches (default 100,000). */
  cacheSize?: number;
  /** Replace a mapping instance whose memory grew past this many bytes (default 32 MiB). */
  memoryLimitBytes?: number;
  /** The manifest declares `nonFatalErrors`. */
  nonFatalErrors?: boolean;
  /** The cap on each mapping instance's linear memory, for modules given with their bytes. */
  maxMemoryMb?: number;
  /** Record graph-node's proof-of-indexing events for this hasher and causality region. */
  poi?: PoiSettings;
  /** Where the store takes immutable rows as COPY lines: its immutable tables, for the results' `copied`. */
  copyPlan?: CopyPlan;
  /** The deployment has a debug fork: a store read that finds nothing asks the main thread's fork (`fork` requests). */
  debugFork?: boolean;
  /** false: no handler profile (to measure its cost). */
  profile?: boolean;
}

export interface PoiSettings {
  version: PoiVersion;
  region: string;
}

/** One handler call: an event, or a block (block handlers). */
export type Trigger =
  | {
      kind: "event";
      /** Index into the deployment's data source list. */
      dataSource: number;
      handler: string;
      event: EthereumEventInput;
    }
  | { kind: "block"; dataSource: number; handler: string; block: EthereumBlockInput }
  /** A call handler: `seq` is the call's place among its transaction's calls (depth first). */
  | { kind: "call"; dataSource: number; handler: string; call: EthereumCallInput; seq: number }
  /** A subgraph data source's trigger: an entity its source deployment created (subgraph composition). */
  | { kind: "entity"; dataSource: number; handler: string; entityType: string; entity: EntityData; timestamp: number }
  /** A trigger graph-node refuses to run (a log that matches two handlers of one data source): fails its block. */
  | { kind: "refused"; dataSource: number; handler: string; message: string; logIndex: number; transactionIndex: number; transactionHash: string };

/**
 * An event trigger as the range loader keeps it on the main thread until its run is posted: the log's
 * address and parameter values packed (runCodec.ts's EventValuePacker), not objects. The worker gets it
 * as an `event` trigger.
 */
export interface LoadedEventTrigger {
  kind: "loadedEvent";
  dataSource: number;
  handler: string;
  block: EthereumBlockInput;
  transaction: EthereumTransactionInput;
  logIndex: number;
  /** The parameters' names, one list shared by the events of a signature. */
  names: readonly string[];
  /** The range's packed bodies: this event's is `bytes` from `at` to `end`. */
  packed: { readonly bytes: Uint8Array };
  at: number;
  end: number;
}

/** A trigger as block jobs hold it on the main thread. */
export type LoadedTrigger = Trigger | LoadedEventTrigger;

/** A block pointer plus what `_meta.block` reports (the store keeps them with the pointer). */
export type JobBlockPtr = BlockPtr & { timestamp: number; parentHash: string };

export interface BlockJob {
  ptr: JobBlockPtr;
  triggers: LoadedTrigger[];
}

/**
 * A run as posted to the worker (runCodec.ts): event triggers packed into `bytes` (transferred), what
 * they share as objects once.
 */
export interface PackedRun {
  blocks: { ptr: JobBlockPtr; at: number; count: number }[];
  bytes: Uint8Array<ArrayBuffer>;
  strings: string[];
  inputs: EthereumBlockInput[];
  transactions: EthereumTransactionInput[];
  /** Triggers kept as objects, by the index their record names. */
  other: Trigger[];
}

/** A block as the worker runs it: its triggers are read as they are iterated. */
export interface RunBlock {
  ptr: JobBlockPtr;
  triggers: Iterable<Trigger>;
}

export type WorkerCommand =
  /** The first message a started thread gets: which deployment it runs (it loads the host before). */
  | ({ type: "init" } & WorkerInit)
  | { type: "run"; id: number; run: PackedRun }
  /** Forget every cached entity and every data source past the first `dataSources` (after a revert, or a failed run). */
  | { type: "reset"; id: number; dataSources: number; waitingFiles?: number[] };

/** A handler's deterministic error that did not fail the deployment (`nonFatalErrors`). */
export interface NonFatalError {
  message: string;
  handler: string;
}

export interface HandlerFailure {
  message: string;
  deterministic: boolean;
  handler: string | null;
  block: BlockPtr;
  /** A deterministic failure's proof-of-indexing journal entry: graph-node keeps the proof at the failed block. */
  poiJournal?: PoiJournalEntry;
  /**
   * Where in the mapping it failed: the wasm frames of the error (function names from the module's name
   * section, byte offsets a source map can place) and the data source whose mapping ran. For the log and
   * the dashboard only: the message stays graph-node's.
   */
  trap?: MappingTrap;
}

export interface MappingTrap {
  /** The data source (or template) whose mapping trapped, by its manifest name. */
  dataSource: string | null;
  /** Innermost first. */
  frames: WasmFrame[];
}

export interface BlockResult {
  ptr: JobBlockPtr;
  /** The chain's changes, then each processed file's (with its causality region), as graph-node orders them. */
  changes: RegionEntityChange[];
  /** The sets of immutable entities, as COPY lines (with a copy plan): one string to pass on, not a Map each. */
  copied?: CopiedRows[];
  /** File data sources (by index) whose file was processed in this block. */
  done?: number[];
  /** The block's proof-of-indexing events, to be hashed later (local-node/poi's journal entry). */
  poiJournal?: PoiJournalEntry;
  /** Handlers skipped for a deterministic error (the manifest declares `nonFatalErrors`). */
  errors?: NonFatalError[];
  /**
   * Data sources the block's handlers created. The worker stops its batch after a block that created a
   * contract data source: the blocks after it were loaded without the new data source's triggers.
   */
  created?: CreatedDataSource[];
}

/** Where a mapping's log line came from. */
export interface MappingLogOrigin {
  dataSource: string;
  /** The block whose handlers were running; null outside a block. */
  block: { number: number; hash: string } | null;
}

export type WorkerReply =
  /** The thread has loaded the host's modules and waits for its init. */
  | { type: "loaded" }
  /** `profile`: what the run's handlers cost (handlerProfile.ts), null when none ran. */
  | { type: "done"; id: number; results: BlockResult[]; failure: HandlerFailure | null; profile?: ProfileDelta | null }
  /** `mapping`: a line the mapping logged (`log.*`), with the data source whose handler logged it. */
  | { type: "log"; level: LogLevel; message: string; mapping?: MappingLogOrigin }
  | { type: "ready" }
  | { type: "fatal"; message: string };

export type SyncRequest =
  | { type: "get"; entityType: string; id: string }
  /** Every id of an entity type in the store (loaded once per type by the worker). */
  | { type: "ids"; entityType: string }
  | { type: "getDerived"; entityType: string; field: string; id: string }
  | { type: "call"; call: EthereumCallRequest }
  | { type: "balance"; address: string; block: BlockPtr | null }
  | { type: "hasCode"; address: string; block: BlockPtr | null }
  /** The triggers of `block` for data sources created in it, in graph-node's order (data source indexes set). */
  | { type: "triggersIn"; block: JobBlockPtr; dataSources: CreatedDataSource[] }
  /** A file data source's file from the node's IPFS (`<cid>[/path]`); null when it is not there (yet). */
  | { type: "file"; path: string }
  /** The entity from the deployment's debug fork (local-node/fork); null when the base has none or it was fetched before. */
  | { type: "fork"; entityType: string; id: string };

export type SyncResponse =
  /** `cached`: an eth_call answered without asking the chain (the chain cache). */
  | { ok: true; value: EntityData | null | EntityData[] | EthereumValue[] | string[] | bigint | boolean | Trigger[] | Uint8Array; cached?: boolean }
  | { ok: false; message: string };
