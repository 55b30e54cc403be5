// The manifest part of the node: a deployment as loaded from IPFS and validated, ready for the indexer.
// The deployment id is the manifest's IPFS hash. Nothing here touches the store.
import type { SubgraphSchema } from "../../subgraph-schema/index.js";

/** One `eventHandlers` entry, resolved against the data source's ABI. */
export interface LoadedEventHandler {
  /** The signature as written in the manifest, e.g. `Approval(indexed address,indexed address,uint256)`. */
  event: string;
  /** The exported wasm function to call. */
  handler: string;
  /** keccak256 of the canonical signature without `indexed` (or the manifest's `topic0`), lowercase 0x hex. */
  topic0: string;
  /** Optional `topic1`..`topic3` filters from the manifest (any of the listed values), lowercase 0x hex. */
  topic1: string[] | null;
  topic2: string[] | null;
  topic3: string[] | null;
  /** `receipt: true` in the manifest: the handler wants the transaction receipt. */
  receipt: boolean;
  /** The matching ABI event entry (JSON, as in the ABI file), for decoding logs. */
  abiEvent: AbiEventEntry;
}

/** A `callHandlers` entry, resolved against the data source's ABI. */
export interface LoadedCallHandler {
  /** The signature as written, e.g. `approve(address,uint256)`. */
  function: string;
  handler: string;
  /** The first 4 bytes of keccak256 of the signature, lowercase 0x hex. */
  selector: string;
  /** The matching ABI `function` entry (payable or nonpayable, as graph-node looks it up). */
  abiFunction: Record<string, unknown>;
}

export interface LoadedBlockHandler {
  handler: string;
  filter: null | { kind: "call" } | { kind: "once" } | { kind: "polling"; every: number };
}

/** An ABI `event` entry as JSON (`{type: "event", name, inputs, anonymous}`). */
export interface AbiEventEntry {
  type: "event";
  name: string;
  inputs: AbiParam[];
  anonymous?: boolean;
}

export interface AbiParam {
  name: string;
  type: string;
  indexed?: boolean;
  internalType?: string;
  components?: AbiParam[];
}

/** Fields shared by data sources and templates. */
export interface LoadedMapping {
  /** `ethereum` (or `ethereum/contract`). */
  kind: string;
  name: string;
  network: string;
  /** `mapping.apiVersion`, e.g. "0.0.7". */
  apiVersion: string;
  /** `mapping.entities`. */
  entities: string[];
  /** Every `mapping.abis` entry by name: the ABI JSON array. */
  abis: Record<string, unknown[]>;
  /** `source.abi`: the ABI the events come from. */
  abiName: string;
  eventHandlers: LoadedEventHandler[];
  /** `blockHandlers`: `filter` null runs on every block. */
  blockHandlers: LoadedBlockHandler[];
  /** `callHandlers`. */
  callHandlers: LoadedCallHandler[];
  /** The compiled mapping (WebAssembly.compile of the linked file). */
  wasmModule: WebAssembly.Module;
  /** The mapping's bytes, e.g. for hashing or a worker that compiles again. */
  wasmBytes: Uint8Array;
  /** The IPFS CID of the mapping file. */
  wasmCid: string;
}

export interface LoadedDataSource extends LoadedMapping {
  /** `source.address` as lowercase 0x hex; null when the manifest has none. */
  address: string | null;
  /** `source.startBlock` (0 when absent). */
  startBlock: number;
  /** `source.endBlock`, null when absent. */
  endBlock: number | null;
  /** `context` from the manifest (graph-node's `{key: {type, data}}` map), null when absent. */
  context: Record<string, { type: string; data: unknown }> | null;
}

/** A `templates` entry (dynamic data sources). Same mapping fields, no address or start block. */
export type LoadedTemplate = LoadedMapping;

/** A file data source template (`kind: file/ipfs`): its handler receives a file's bytes. */
export interface LoadedFileTemplate {
  kind: "file/ipfs";
  name: string;
  network: string;
  apiVersion: string;
  /** `mapping.entities` that exist in the schema (graph-node drops others): the only types it may touch. */
  entities: string[];
  handler: string;
  wasmModule: WebAssembly.Module;
  wasmBytes: Uint8Array;
  wasmCid: string;
}

/** A `kind: subgraph` data source (subgraph composition): its handlers run on the source deployment's entities. */
export interface LoadedSubgraphDataSource {
  kind: "subgraph";
  name: string;
  network: string;
  apiVersion: string;
  entities: string[];
  /** `source.address`: the source deployment's id. */
  source: string;
  /** `source.startBlock` (0 when absent). */
  startBlock: number;
  /** `mapping.handlers`: one handler per source entity type. */
  handlers: { handler: string; entity: string }[];
  context: Record<string, { type: string; data: unknown }> | null;
  /** The source deployment's schema, as it was at deploy. */
  sourceSchemaSdl: string;
  wasmModule: WebAssembly.Module;
  wasmBytes: Uint8Array;
  wasmCid: string;
}

export interface LoadedDeployment {
  /** The manifest's IPFS hash (`Qm...`): the deployment id. */
  id: string;
  /** The manifest exactly as stored in IPFS. */
  manifestYaml: string;
  specVersion: string;
  schemaSdl: string;
  schema: SubgraphSchema;
  /** The one network every data source and template uses. */
  network: string;
  dataSources: LoadedDataSource[];
  templates: LoadedTemplate[];
  /** File data source templates (`kind: file/ipfs`). */
  fileTemplates: LoadedFileTemplate[];
  /** `kind: subgraph` data sources, in manifest order (graph-node refuses them beside onchain ones). */
  subgraphDataSources: LoadedSubgraphDataSource[];
  /** `features` declared in the manifest (`nonFatalErrors`, `fullTextSearch`, ...). */
  features: string[];
  /** `indexerHints` (specVersion >= 1.0.0): `prune` sets how many blocks of history the deployment keeps. */
  indexerHints: { prune: string | number | null } | null;
  /** `graft`: the deployment starts from `base`'s data as of `block`, and indexes from the block after. */
  graft: { base: string; block: number } | null;
}

export interface LoadDeploymentOptions {
  /** Whether the node has an RPC for a network; a manifest on another network is refused. Default: any. */
  supportsNetwork?(network: string): boolean;
  /** Highest mapping apiVersion accepted (graph-node's GRAPH_MAX_API_VERSION). Default "0.0.9". */
  maxApiVersion?: string;
  /** Highest manifest specVersion accepted (GRAPH_MAX_SPEC_VERSION). Default "1.3.0". */
  maxSpecVersion?: string;
  /**
   * Accept `@fulltext` search fields (GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH). graph-node's release
   * builds refuse them otherwise, calling them "not yet deterministic"; so does this node by default.
   */
  allowFulltextSearch?: boolean;
}
