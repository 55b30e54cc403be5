// Public types of the subgraph WASM host: what the node and the runner hand it, and what it gives back.
// Everything here is plain JS data: pointers and AssemblyScript layouts stay inside abi/.

import type { BlockPtr, EntityChange, EntityData, StoreValue } from "./values/storeValue.js";
import type { BigIntLike, BytesLike, EthereumValue } from "./values/ethereumValue.js";
import type { AscCodec } from "./abi/codec.js";
import type { HostStore } from "./store/hostStore.js";
import type { EntityStoreBackend } from "./store/backend.js";
import type { SubgraphSchema } from "../subgraph-schema/index.js";

export type { BlockPtr, EntityChange, EntityData, StoreValue, BigIntLike, BytesLike, EthereumValue, EntityStoreBackend };

/** Mapping API versions the host supports (AssemblyScript >= 0.19 memory layout). */
export type ApiVersion = "0.0.5" | "0.0.6" | "0.0.7" | "0.0.8" | "0.0.9" | (string & {});

/** `ethereum.Block` as graph-node fills it for apiVersion 0.0.7. */
export interface EthereumBlockInput {
  hash: BytesLike;
  parentHash: BytesLike;
  unclesHash: BytesLike;
  author: BytesLike;
  stateRoot: BytesLike;
  transactionsRoot: BytesLike;
  receiptsRoot: BytesLike;
  number: BigIntLike;
  gasUsed: BigIntLike;
  gasLimit: BigIntLike;
  timestamp: BigIntLike;
  difficulty: BigIntLike;
  totalDifficulty: BigIntLike | null;
  size: BigIntLike | null;
  baseFeePerGas: BigIntLike | null;
}

/** `ethereum.Transaction`. */
export interface EthereumTransactionInput {
  hash: BytesLike;
  index: BigIntLike;
  from: BytesLike;
  to: BytesLike | null;
  value: BigIntLike;
  gasLimit: BigIntLike;
  gasPrice: BigIntLike;
  input: BytesLike;
  nonce: BigIntLike;
}

/** `ethereum.Log` inside a receipt. */
export interface EthereumLogInput {
  address: BytesLike;
  topics: BytesLike[];
  data: BytesLike;
  blockHash: BytesLike;
  /** graph-ts types it as Bytes (sic): the big-endian block number bytes. */
  blockNumber: BytesLike;
  transactionHash: BytesLike;
  transactionIndex: BigIntLike;
  logIndex: BigIntLike;
  transactionLogIndex: BigIntLike;
  logType: string;
  removed: boolean | null;
}

/** `ethereum.TransactionReceipt` (only for handlers declared with `receipt: true`). */
export interface EthereumReceiptInput {
  transactionHash: BytesLike;
  transactionIndex: BigIntLike;
  blockHash: BytesLike;
  blockNumber: BigIntLike;
  cumulativeGasUsed: BigIntLike;
  gasUsed: BigIntLike;
  contractAddress: BytesLike;
  logs: EthereumLogInput[];
  status: BigIntLike;
  root: BytesLike;
  logsBloom: BytesLike;
}

/** One decoded event parameter. */
export interface EventParamInput {
  name: string;
  value: EthereumValue;
}

/** An event as the indexer or a test hands it to `runEventHandler`; built as graph-ts's `ethereum.Event`. */
export interface EthereumEventInput {
  address: BytesLike;
  logIndex: BigIntLike;
  transactionLogIndex: BigIntLike;
  logType: string | null;
  block: EthereumBlockInput;
  transaction: EthereumTransactionInput;
  parameters: EventParamInput[];
  receipt?: EthereumReceiptInput | null;
}

/** A call handler's input: graph-ts's `ethereum.Call`. */
export interface EthereumCallInput {
  to: BytesLike;
  from: BytesLike;
  block: EthereumBlockInput;
  transaction: EthereumTransactionInput;
  inputValues: EventParamInput[];
  outputValues: EventParamInput[];
}

/** The argument of `ethereum.call`, read from the module's `SmartContractCall`. */
export interface EthereumCallRequest {
  contractName: string;
  /** Lowercase 0x hex. */
  contractAddress: string;
  functionName: string;
  /** e.g. `balanceOf(address):(uint256)` as graph-cli generates it. */
  functionSignature: string;
  functionParams: EthereumValue[];
  /** The block the handler runs in (null outside a block). */
  block: BlockPtr | null;
}

/** The data source the module runs for. */
export interface DataSourceInfo {
  /** The data source's name (for error messages). */
  name?: string;
  /** Template names `dataSource.create` may use; when given, other names fail as in graph-node. */
  templates?: string[];
  /** Lowercase 0x hex (or "" when the data source has no address); a file data source's IPFS path. */
  address: string;
  /** The manifest kind; a `file/...` data source answers `dataSource.address()` with its path's UTF-8 bytes. */
  kind?: string;
  /**
   * The entity types the data source may read and write (a file data source's `mapping.entities`);
   * others fail as graph-node's entity type access check. Absent: any.
   */
  entities?: string[];
  network: string;
  /** `dataSource.context()`; null gives an empty context, as graph-node. */
  context: EntityData | null;
  /** Called for `dataSource.create` / `createWithContext` (template name, params, context). */
  onCreate?(name: string, params: string[], context: EntityData | null): void;
}

export type LogLevel = "critical" | "error" | "warning" | "info" | "debug";

/** Synchronous entity reads; the host keeps the block-scoped write cache on top. */
/** What `extraImports` receives: the live codec and store of one instance. */
export interface HostContext {
  /** Read and write AssemblyScript objects in the module's memory. */
  readonly codec: AscCodec;
  /** The entity cache over the backend: the host's store semantics, usable by matchstick functions. */
  readonly store: HostStore;
  readonly options: HostOptions;
  /** The block handlers currently run in (null before the first `beginBlock`). */
  readonly block: BlockPtr | null;
  /** The name of the export currently running, for error messages. */
  readonly handler: string | null;
  /** The module's exports once instantiated. */
  readonly exports: WebAssembly.Exports;
}

export interface HostOptions {
  /** Mapping apiVersion, "0.0.5" .. "0.0.9". */
  apiVersion: ApiVersion;
  /** The parsed schema.graphql (`parseSubgraphSchema` from subgraph-schema/). */
  schema: SubgraphSchema;
  store: EntityStoreBackend;
  /**
   * The entity cache to write through, shared by every instance of one deployment: graph-node keeps one
   * cache per block across all data sources. Default: a cache of this instance's own over `store`.
   */
  entityCache?: HostStore;
  /** `ethereum.call`; return null when the call reverted. Absent = every call fails deterministically. */
  ethereumCall?(call: EthereumCallRequest): EthereumValue[] | null;
  ethereumGetBalance?(address: string): bigint;
  ethereumHasCode?(address: string): boolean;
  /** `ipfs.cat` / `ipfs.map`; null = not found. */
  ipfsCat?(hashOrPath: string): Uint8Array | null;
  dataSource: DataSourceInfo;
  ensNameByHash?(hash: string): string | null;
  /** Every `log.log`; critical also aborts the handler. */
  log?(level: LogLevel, message: string): void;
  /**
   * More host functions, matched by import NAME like the built-in ones (e.g. matchstick-as's
   * `clearStore`, `_assert.fieldEquals`). An entry here overrides a built-in of the same name.
   */
  extraImports?(ctx: HostContext): Record<string, (...args: any[]) => any>;
  /**
   * graph-node runs every trigger in a fresh instance; we keep one instance for speed and, after
   * `runEventHandler`, start a fresh one (re-running `_start`) once memory exceeds this many bytes.
   * Default 256 MiB; `Infinity` never recycles. `callExport` never recycles.
   */
  recycleMemoryBytes?: number;
}

/** One instantiated mapping module. Not reentrant: run one handler at a time. */
export interface SubgraphInstance {
  readonly context: HostContext;
  /** True if restarts keep the memory (a module compiled by compileWithReusableMemory). */
  readonly reusesMemory: boolean;
  /**
   * Starts the mapping afresh (a new instance, `_start` run again) once it holds more than `limitBytes`
   * of memory; true if it did. A reused memory is zeroed where it was written (it is counted by the
   * mapping's heap, not the memory's size, which it keeps); otherwise the old memory is left for a
   * garbage collection.
   */
  restartIfGrown(limitBytes: number): boolean;
  /** Starts a new block: the in-block write cache starts empty (pending changes are kept). */
  beginBlock(block: BlockPtr): void;
  /**
   * The data source the next handlers run for (`dataSource.address()`, `context()`, ...). One instance
   * of a template's module serves every data source created from it.
   */
  setDataSource(dataSource: DataSourceInfo): void;
  /** Builds the apiVersion 0.0.7 `ethereum.Event` in memory and calls the handler. Throws HostError. */
  runEventHandler(handler: string, event: EthereumEventInput): void;
  /** Block handlers: builds `ethereum.Block` and calls the handler. Throws HostError. */
  runBlockHandler(handler: string, block: EthereumBlockInput): void;
  /** Call handlers: builds `ethereum.Call` and calls the handler. Throws HostError. */
  runCallHandler(handler: string, call: EthereumCallInput): void;
  /** A file data source's handler: calls it with the file's content as `Bytes`. Throws HostError. */
  runFileHandler(handler: string, content: Uint8Array): void;
  /**
   * A subgraph data source's entity handler (subgraph composition): calls it with the source's entity as
   * graph-node passes it, an `Entity` map of its fields (null ones left out). Throws HostError.
   */
  runEntityHandler(handler: string, entity: EntityData, blockTimestamp: BigIntLike): void;
  /** Writes since the last take, in first-write order, one change per entity (the last one). */
  takeChanges(): EntityChange[];
  /** Calls any export with raw arguments (pointers/numbers); errors become HostError. */
  callExport(name: string, ...args: (number | bigint)[]): unknown;
}
