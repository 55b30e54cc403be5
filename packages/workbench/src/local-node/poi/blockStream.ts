// The proof of indexing of one block, as graph-node keeps it online (proof_of_indexing/online.rs): one
// stream per causality region, each event written at its place in the reference structure
// (region -> blocks[block] -> events[i]); at the block's end each stream writes its event count and is
// joined to the region's digest so far. Recording the events (cheap, while handlers run) is apart from
// hashing them (costly), so that the hashing can run on a thread of its own.
import { createHash } from "node:crypto";
import type { PoiEvent, PoiVersion } from "./events.js";
import { LegacySeq, LegacySetHasher } from "./legacyHasher.js";
import { fastAddress, FastStableHasher } from "./fastHasher.js";
import { legacyEvent, legacyInt } from "./legacyEncoding.js";
import { fastEvent, fastInt } from "./fastEncoding.js";

const FAST_DIGEST_BYTES = 32;

/** One block's events by causality region, in the order the regions got their first trigger. */
export interface BlockPoiRecord {
  block: number;
  regions: { name: string; events: PoiEvent[] }[];
}

/**
 * Records a block's events (graph-node's ProofOfIndexing). A region gets a stream at its first trigger,
 * even one that writes nothing, and every stream is hashed at the block's end.
 */
export class BlockPoiRecorder {
  private readonly regions = new Map<string, { events: PoiEvent[]; handlerStart: number }>();

  constructor(readonly block: number) {}

  private region(name: string): { events: PoiEvent[]; handlerStart: number } {
    let r = this.regions.get(name);
    if (!r) this.regions.set(name, (r = { events: [], handlerStart: 0 }));
    return r;
  }

  /** A trigger's handlers start: a deterministic error voids the events from here. */
  startHandler(region: string): void {
    const r = this.region(region);
    r.handlerStart = r.events.length;
  }

  /** Keeps `event`: its data must not change afterwards. */
  write(region: string, event: PoiEvent): void {
    this.region(region).events.push(event);
  }

  /** A handler failed deterministically: how many of its trigger's events no longer reach the store. */
  writeDeterministicError(region: string): void {
    const r = this.region(region);
    r.events.push({ kind: "DeterministicError", redactedEvents: r.events.length - r.handlerStart });
  }

  record(): BlockPoiRecord {
    return { block: this.block, regions: [...this.regions].map(([name, r]) => ({ name, events: r.events })) };
  }
}

/** Each region's stream for a block, hashed and ended (its count written), before joining any digest. */
export type HashedRegions = { name: string; own: Uint8Array }[];

export function hashBlockRecord(record: BlockPoiRecord, version: PoiVersion): HashedRegions {
  return record.regions.map(({ name, events }) => {
    const blockPath = [1, 0, record.block, 0];
    if (version === "legacy") {
      const h = new LegacySetHasher();
      events.forEach((e, i) => legacyEvent(e, LegacySeq.at([...blockPath, i]), h));
      legacyInt(events.length, LegacySeq.at(blockPath), h);
      return { name, own: h.toBytes() };
    }
    const h = new FastStableHasher();
    events.forEach((e, i) => fastEvent(e, fastAddress([...blockPath, i]), h));
    fastInt(events.length, fastAddress(blockPath), h);
    return { name, own: h.toBytes() };
  });
}

/** A region's digest after a block: the block's own stream joined to the digest before it (null: none). */
export function joinDigests(version: PoiVersion, previous: Uint8Array | null, own: Uint8Array): Uint8Array {
  if (previous === null) return own;
  if (version === "legacy") {
    const h = LegacySetHasher.fromBytes(own);
    h.mixin(LegacySetHasher.fromBytes(previous).value);
    return h.toBytes();
  }
  // A digest of another length (a legacy one) is folded to 32 bytes with SHA-256, as graph-node does.
  const bytes = previous.length === FAST_DIGEST_BYTES ? previous : new Uint8Array(createHash("sha256").update(previous).digest());
  const h = FastStableHasher.fromBytes(own);
  h.mixin(FastStableHasher.fromBytes(bytes));
  return h.toBytes();
}

/** graph-node's causality region name for a chain's triggers: `ethereum/<network>`. */
export function onchainRegion(network: string): string {
  return `ethereum/${network}`;
}
