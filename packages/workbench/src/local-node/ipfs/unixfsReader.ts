// Reading UnixFS DAGs back out of the block store: path resolution through directories, file
// reassembly, DAG sizes. Decoding uses @ipld/dag-pb and ipfs-unixfs (the libraries the importer
// writes with), synchronously.
import * as dagPb from "@ipld/dag-pb";
import { UnixFS } from "ipfs-unixfs";
import { CID } from "multiformats/cid";
import type { BlockStore } from "./blockStore.js";
import { IpfsNotFoundError, IpfsPathError } from "./errors.js";

const RAW_CODE = 0x55;
const DAG_PB_CODE = 0x70;

export interface IpfsPath {
  root: CID;
  /** Names below the root, e.g. ["dir", "file.txt"]. */
  segments: string[];
}

/** Parses `Qm...`, `bafy...`, `/ipfs/<cid>` and `/ipfs/<cid>/a/b` (Kubo's accepted `arg` forms). */
export function parseIpfsPath(input: string): IpfsPath {
  let rest = input.trim();
  if (rest.startsWith("/ipfs/")) rest = rest.slice("/ipfs/".length);
  else if (rest.startsWith("ipfs/")) rest = rest.slice("ipfs/".length);
  else if (rest.startsWith("/")) throw new IpfsPathError(`invalid path "${input}": unknown namespace`, { details: { input } });
  const [first = "", ...segments] = rest.split("/");
  let root: CID;
  try {
    root = CID.parse(first);
  } catch (error) {
    throw new IpfsPathError(`invalid path "${input}": invalid cid: ${(error as Error).message}`, { cause: error, details: { input } });
  }
  return { root, segments: segments.filter((s) => s !== "") };
}

function mustGet(blocks: BlockStore, cid: CID): Uint8Array {
  const bytes = blocks.getSync(cid);
  if (bytes === null) throw new IpfsNotFoundError(cid.toString());
  return bytes;
}

function decodeUnixFs(cid: CID, node: dagPb.PBNode): UnixFS {
  if (node.Data === undefined) throw new IpfsPathError(`${cid.toString()} is not a UnixFS node`);
  return UnixFS.unmarshal(node.Data);
}

/** Follows `segments` from `root` through UnixFS directories. Throws IpfsNotFoundError for missing blocks. */
export function resolvePath(blocks: BlockStore, path: IpfsPath): CID {
  let current = path.root;
  for (const segment of path.segments) {
    if (current.code !== DAG_PB_CODE) throw new IpfsPathError(`no link named "${segment}" under ${current.toString()}`);
    const node = dagPb.decode(mustGet(blocks, current));
    const unixfs = decodeUnixFs(current, node);
    if (unixfs.type === "hamt-sharded-directory") {
      throw new IpfsPathError(`sharded directories are not supported by this node (${current.toString()})`);
    }
    if (unixfs.type !== "directory") throw new IpfsPathError(`no link named "${segment}" under ${current.toString()}`);
    const link = node.Links.find((l) => l.Name === segment);
    if (link === undefined) throw new IpfsPathError(`no link named "${segment}" under ${current.toString()}`);
    current = link.Hash;
  }
  return current;
}

/** Appends the file bytes under `cid` to `out`, depth first (UnixFS file order). */
function collectFile(blocks: BlockStore, cid: CID, out: Uint8Array[]): void {
  const bytes = mustGet(blocks, cid);
  if (cid.code === RAW_CODE) {
    out.push(bytes);
    return;
  }
  if (cid.code !== DAG_PB_CODE) throw new IpfsPathError(`unsupported codec 0x${cid.code.toString(16)} for ${cid.toString()}`);
  const node = dagPb.decode(bytes);
  const unixfs = decodeUnixFs(cid, node);
  if (unixfs.type === "directory" || unixfs.type === "hamt-sharded-directory") {
    // Kubo's text for `cat` of a directory.
    throw new IpfsPathError("this dag node is a directory", { details: { cid: cid.toString() } });
  }
  if (unixfs.type !== "file" && unixfs.type !== "raw") {
    throw new IpfsPathError(`cannot cat a UnixFS ${unixfs.type} node`, { details: { cid: cid.toString() } });
  }
  if (unixfs.data !== undefined && unixfs.data.length > 0) out.push(unixfs.data);
  for (const link of node.Links) collectFile(blocks, link.Hash, out);
}

/** The file at `cid` as one buffer. Throws IpfsNotFoundError when any block is missing. */
export function readFile(blocks: BlockStore, cid: CID): Uint8Array {
  const parts: Uint8Array[] = [];
  collectFile(blocks, cid, parts);
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts);
}

/** Kubo's cumulative DAG size (`Size` of `add`): the root block plus every link's Tsize. */
export function dagSize(blocks: BlockStore, cid: CID): number {
  const bytes = mustGet(blocks, cid);
  if (cid.code !== DAG_PB_CODE) return bytes.length;
  const node = dagPb.decode(bytes);
  return node.Links.reduce((sum, link) => sum + (link.Tsize ?? 0), bytes.length);
}

/** True when every block of the DAG under `cid` is present. */
export function hasWholeDag(blocks: BlockStore, cid: CID): boolean {
  const bytes = blocks.getSync(cid);
  if (bytes === null) return false;
  if (cid.code !== DAG_PB_CODE) return true;
  return dagPb.decode(bytes).Links.every((link) => hasWholeDag(blocks, link.Hash));
}
