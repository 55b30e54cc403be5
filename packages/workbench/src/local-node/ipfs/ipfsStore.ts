// createIpfsStore: the node's local IPFS content store. Adding goes through ipfs-unixfs-importer with
// Kubo's `ipfs add` defaults, so every CID equals the one Kubo computes for the same bytes.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { importer, type ImportCandidate, type ImporterOptions } from "ipfs-unixfs-importer";
import { fixedSize } from "ipfs-unixfs-importer/chunker";
import { balanced } from "ipfs-unixfs-importer/layout";
import type { CID } from "multiformats/cid";
import { createFsBlockStore, createMemoryBlockStore, type BlockStore } from "./blockStore.js";
import { IpfsNotFoundError, IpfsPathError } from "./errors.js";
import type { IpfsAddedEntry, IpfsAddFile, IpfsAddOptions, IpfsStore, IpfsStoreOptions } from "./types.js";
import { dagSize, hasWholeDag, parseIpfsPath, readFile, resolvePath } from "./unixfsReader.js";

/** Kubo's defaults for `ipfs add` (Import.CidVersion 0, UnixFSChunker size-262144, 174 links, no raw leaves). */
export const KUBO_CHUNK_SIZE = 262_144;
export const KUBO_MAX_LINKS = 174;

export function kuboImporterOptions(wrapWithDirectory = false): ImporterOptions {
  return {
    cidVersion: 0,
    rawLeaves: false,
    leafType: "file",
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: KUBO_CHUNK_SIZE }),
    layout: balanced({ maxChildrenPerNode: KUBO_MAX_LINKS }),
    shardSplitThresholdBytes: 262_144,
    shardSplitStrategy: "links-bytes",
    wrapWithDirectory,
  };
}

function loadPins(file: string | null): Set<string> {
  if (file === null || !existsSync(file)) return new Set();
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  return new Set(Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === "string") : []);
}

function depth(path: string): number {
  return path.split("/").length;
}

export async function createIpfsStore(options: IpfsStoreOptions = {}): Promise<IpfsStore> {
  let blocks: BlockStore;
  let pinsFile: string | null = null;
  if (options.dir === undefined) {
    blocks = createMemoryBlockStore();
  } else {
    await mkdir(options.dir, { recursive: true });
    blocks = createFsBlockStore(options.dir);
    pinsFile = join(options.dir, "pins.json");
  }
  const pins = loadPins(pinsFile);
  let closed = false;

  const savePins = (): void => {
    if (pinsFile === null) return;
    const tmp = `${pinsFile}.tmp`;
    writeFileSync(tmp, JSON.stringify([...pins].sort()));
    renameSync(tmp, pinsFile);
  };
  const assertOpen = (): void => {
    if (closed) throw new Error("IPFS store is closed");
  };
  // Pins are recorded by the CIDv0/v1 string as given; Kubo's `pin add` answers the same form.
  const pinCid = (cid: CID): void => {
    if (!hasWholeDag(blocks, cid)) throw new IpfsNotFoundError(cid.toString());
    const key = cid.toString();
    if (!pins.has(key)) {
      pins.add(key);
      savePins();
    }
  };

  const catSync = (pathOrCid: string): Uint8Array | null => {
    assertOpen();
    const path = parseIpfsPath(pathOrCid);
    try {
      return readFile(blocks, resolvePath(blocks, path));
    } catch (error) {
      if (error instanceof IpfsNotFoundError) return null;
      throw error;
    }
  };

  const getBlockSync = (cidText: string): Uint8Array | null => {
    assertOpen();
    const path = parseIpfsPath(cidText);
    if (path.segments.length > 0) throw new IpfsPathError(`block/get takes a CID, not a path: ${cidText}`);
    return blocks.getSync(path.root);
  };

  const addAll = async (files: IpfsAddFile[], addOptions: IpfsAddOptions = {}): Promise<IpfsAddedEntry[]> => {
    assertOpen();
    const candidates: ImportCandidate[] = [
      ...(addOptions.directories ?? []).map((path) => ({ path })),
      ...files.map((f) => ({ path: f.path, content: f.content })),
    ];
    const fileEntries: IpfsAddedEntry[] = [];
    const dirEntries: { entry: IpfsAddedEntry; depth: number }[] = [];
    const filePaths = new Set(files.map((f) => normalisePath(f.path)));
    // only-hash: compute the CIDs in a throwaway store; nothing is kept or pinned.
    const target = addOptions.onlyHash === true ? createMemoryBlockStore() : blocks;
    for await (const result of importer(candidates, target, kuboImporterOptions(addOptions.wrapWithDirectory ?? false))) {
      const name = result.path ?? "";
      const cid = result.cid.toString();
      const entry = { name: name === "" ? cid : name, cid, size: dagSize(target, result.cid) };
      if (filePaths.has(name) && result.unixfs?.type !== "directory") fileEntries.push(entry);
      else dirEntries.push({ entry, depth: name === "" ? 0 : depth(name) });
      if ((addOptions.pin ?? true) && addOptions.onlyHash !== true) pinCid(result.cid);
    }
    // Kubo reports files first (in input order), then the directories bottom-up.
    const order = new Map(files.map((f, i) => [normalisePath(f.path), i]));
    fileEntries.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
    dirEntries.sort((a, b) => b.depth - a.depth);
    return [...fileEntries, ...dirEntries.map((d) => d.entry)];
  };

  return {
    async add(bytes) {
      const [entry] = await addAll([{ path: "", content: bytes }]);
      if (entry === undefined) throw new Error("the importer returned no entry");
      return entry.cid;
    },
    addAll,
    async cat(pathOrCid) {
      return catSync(pathOrCid);
    },
    catSync,
    async getBlock(cid) {
      return getBlockSync(cid);
    },
    getBlockSync,
    async has(cidText) {
      assertOpen();
      return hasWholeDag(blocks, parseIpfsPath(cidText).root);
    },
    async pin(cidText) {
      assertOpen();
      const path = parseIpfsPath(cidText);
      pinCid(resolvePath(blocks, path));
    },
    async isPinned(cidText) {
      assertOpen();
      return pins.has(parseIpfsPath(cidText).root.toString());
    },
    async close() {
      closed = true;
    },
  };
}

/** The importer drops a leading `./` or `/`; compare paths the same way. */
function normalisePath(path: string): string {
  return path.replace(/^(\.\/|\/)+/, "");
}
