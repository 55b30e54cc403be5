// Where IPFS blocks live: a directory of files (kept across restarts) or a Map (tests). Blocks are keyed
// by their multihash, as Kubo's datastore does, so a CIDv0 and its CIDv1 form find the same block.
// Reads are synchronous because the WASM host's ipfs.cat/getBlock are synchronous host functions.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { base32 } from "multiformats/bases/base32";
import type { CID } from "multiformats/cid";

export interface BlockStore {
  /** Stores a block (idempotent). Matches interface-blockstore's `put` for the UnixFS importer. */
  put(cid: CID, bytes: Uint8Array): Promise<CID>;
  getSync(cid: CID): Uint8Array | null;
  hasSync(cid: CID): boolean;
}

function blockKey(cid: CID): string {
  // base32 keeps file names case-insensitive-safe and short enough.
  return base32.baseEncode(cid.multihash.bytes);
}

export function createMemoryBlockStore(): BlockStore {
  const blocks = new Map<string, Uint8Array>();
  return {
    async put(cid, bytes) {
      blocks.set(blockKey(cid), bytes.slice());
      return cid;
    },
    getSync(cid) {
      return blocks.get(blockKey(cid)) ?? null;
    },
    hasSync(cid) {
      return blocks.has(blockKey(cid));
    },
  };
}

export function createFsBlockStore(dir: string): BlockStore {
  const blocksDir = join(dir, "blocks");
  mkdirSync(blocksDir, { recursive: true });
  let tmpCounter = 0;
  const pathOf = (cid: CID): string => join(blocksDir, `${blockKey(cid)}.data`);
  return {
    async put(cid, bytes) {
      const path = pathOf(cid);
      if (existsSync(path)) return cid;
      // Write then rename so a crash never leaves a truncated block under its final name.
      const tmp = `${path}.${process.pid}.${tmpCounter++}.tmp`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, path);
      return cid;
    },
    getSync(cid) {
      try {
        return new Uint8Array(readFileSync(pathOf(cid)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    hasSync(cid) {
      return existsSync(pathOf(cid));
    },
  };
}
