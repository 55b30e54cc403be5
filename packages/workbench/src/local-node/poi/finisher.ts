// The proof of indexing at a block from the regions' digests (graph-node's ProofOfIndexingFinisher):
// the reference structure's remaining fields (deployment id, block hash, indexer, each region's name
// and block count) written around the digests, then the final 32 bytes.
import { keccak_256 } from "@noble/hashes/sha3.js";
import type { PoiVersion } from "./events.js";
import { LegacySeq, LegacySetHasher } from "./legacyHasher.js";
import { fastAddress, fastChild, FastStableHasher } from "./fastHasher.js";
import { legacyBytes, legacyInt, legacyOption, legacyString } from "./legacyEncoding.js";
import { fastBytes, fastInt, fastOption, fastString } from "./fastEncoding.js";

export interface PoiRequest {
  deployment: string;
  block: { number: number; hash: Uint8Array };
  /** The indexer's address (20 bytes), or null. */
  indexer: Uint8Array | null;
  /** Each causality region's digest as stored at the block. */
  regions: { name: string; digest: Uint8Array }[];
  version: PoiVersion;
}

export function finishPoi(req: PoiRequest): Uint8Array {
  return req.version === "legacy" ? finishLegacy(req) : finishFast(req);
}

/** graph-node tells a region's digest by its length: 32 bytes is a fast hasher's, any other a legacy one's. */
const FAST_DIGEST_BYTES = 32;

/**
 * A region's digest closed with its block count and name, in its own kind's hasher (a grafted deployment
 * inherits its base's digests, which may be of the other kind), answered with where the outer state
 * takes it: a legacy region's finished hash at `[0, 1]`, a fast region's state at `[0]`.
 */
function closeRegion(r: { name: string; digest: Uint8Array }, blockNumber: number): { bytes: Uint8Array; path: number[] } {
  if (r.digest.length === FAST_DIGEST_BYTES) {
    const region = FastStableHasher.fromBytes(r.digest);
    fastInt(blockNumber + 1, fastAddress([1, 0]), region);
    fastString(r.name, fastAddress([0]), region);
    return { bytes: region.toBytes(), path: [0] };
  }
  const region = LegacySetHasher.fromBytes(r.digest);
  // The blocks list's length: the genesis block makes it one longer than the block number.
  legacyInt(blockNumber + 1, LegacySeq.at([1, 0]), region);
  legacyString(r.name, LegacySeq.at([0]), region);
  return { bytes: region.finish(), path: [0, 1] };
}

function finishLegacy(req: PoiRequest): Uint8Array {
  const state = new LegacySetHasher();
  // DeploymentHash wraps its string one level down.
  legacyString(req.deployment, LegacySeq.at([1]).nextChild(), state);
  legacyBytes(req.block.hash, LegacySeq.at([2]), state);
  legacyOption(req.indexer, LegacySeq.at([3]), state, legacyBytes);
  for (const r of req.regions) {
    const { bytes, path } = closeRegion(r, req.block.number);
    legacyBytes(bytes, LegacySeq.at(path), state);
  }
  legacyInt(req.regions.length, LegacySeq.at([0, 2]), state);
  return state.finish();
}

function finishFast(req: PoiRequest): Uint8Array {
  const state = new FastStableHasher();
  fastString(req.deployment, fastChild(fastAddress([1]), 0), state);
  fastBytes(req.block.hash, fastAddress([2]), state);
  fastOption(req.indexer, fastAddress([3]), state, fastBytes);
  for (const r of req.regions) {
    const { bytes, path } = closeRegion(r, req.block.number);
    fastBytes(bytes, fastAddress(path), state);
  }
  const final = state.finish();
  const le = new Uint8Array(16);
  for (let i = 0; i < 16; i++) le[i] = Number((final >> BigInt(8 * i)) & 0xffn);
  return keccak_256(le);
}
