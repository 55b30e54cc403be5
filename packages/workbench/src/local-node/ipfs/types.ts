// The IPFS part of the node: the local content store behind the node's IPFS RPC API and the deploy
// pipeline. CIDs are exactly Kubo's defaults for `ipfs add` (CIDv0, UnixFS dag-pb, fixed 256 KiB chunks,
// balanced layout with at most 174 links per node, no raw leaves).
import type { FailedRequest } from "../../lib/http/index.js";

/** One line of an `add`: a file or a directory the add created, as Kubo reports it. */
export interface IpfsAddedEntry {
  /** The path as given (files) or the directory path (directories); "" for a nameless add. */
  name: string;
  /** CIDv0 string (`Qm...`). */
  cid: string;
  /** Cumulative size of the DAG in bytes (Kubo's `Size`: blocks including protobuf framing). */
  size: number;
}

/** A file handed to `addAll`; `path` may contain `/` (Kubo then also creates the directories). */
export interface IpfsAddFile {
  path: string;
  content: Uint8Array;
}

export interface IpfsAddOptions {
  /** Pin what was added (Kubo's `pin=true`, the default). */
  pin?: boolean;
  /** Wrap everything in one more directory (`wrap-with-directory`). */
  wrapWithDirectory?: boolean;
  /** Empty directories to create too (multipart `application/x-directory` parts). */
  directories?: string[];
  /** Compute the CIDs only; store and pin nothing (`only-hash`). */
  onlyHash?: boolean;
}

export interface IpfsStore {
  /** Adds one file's bytes and returns its CID (`Qm...`). Added content is pinned. */
  add(bytes: Uint8Array): Promise<string>;
  /**
   * Adds files like Kubo's multipart `add`: one entry per file in input order, then one per directory
   * the paths imply (deepest first). Without `/` in a path only the file entries are returned.
   */
  addAll(files: IpfsAddFile[], options?: IpfsAddOptions): Promise<IpfsAddedEntry[]>;
  /**
   * The bytes of a UnixFS file: `Qm...`, `/ipfs/Qm...` or `/ipfs/Qm.../dir/file`. Null when the content
   * is not stored here. Throws `IpfsPathError` for a malformed CID/path or a directory.
   */
  cat(pathOrCid: string): Promise<Uint8Array | null>;
  /** Same as `cat`, synchronous (the WASM host's `ipfs.cat` is a synchronous host function). */
  catSync(pathOrCid: string): Uint8Array | null;
  /** One raw block (`block/get`, the host's `ipfs.getBlock`). Null when unknown. */
  getBlock(cid: string): Promise<Uint8Array | null>;
  getBlockSync(cid: string): Uint8Array | null;
  /** True when the whole DAG under `cid` is stored locally. */
  has(cid: string): Promise<boolean>;
  /** Pins a stored DAG (recursive). Throws `IpfsNotFoundError` when a block is missing. */
  pin(cid: string): Promise<void>;
  isPinned(cid: string): Promise<boolean>;
  /** Flushes state; the store must not be used afterwards. */
  close(): Promise<void>;
}

export interface IpfsStoreOptions {
  /** Directory for blocks and pins; kept across restarts. In memory when undefined (tests). */
  dir?: string;
}

export interface IpfsServerOptions {
  ipfs: IpfsStore;
  /** 0 picks a free port. Always bound on 127.0.0.1. */
  port: number;
  /** Largest request body accepted by `add` (bytes). Default 256 MiB. */
  maxBodyBytes?: number;
  /** Told about each request that failed with an unexpected error (a 500); default: stderr. */
  onError?: (error: unknown, request: FailedRequest | null) => void;
}

export type { FailedRequest, RunningServer } from "../../lib/http/index.js";
