// The proof of indexing of one block, kept as graph-node keeps it online (proof_of_indexing/online.rs):
// one stream per causality region, each event written at its place in the reference structure
// (region -> blocks[block] -> events[i]); at the block's end each stream writes its event count and
// is joined to the region's digest so far (`pause`). The digest is what the store keeps per region.
import { createHash } from "node:crypto";
import type { PoiEvent, PoiVersion } from "./events.js";
import { LegacySeq, LegacySetHasher } from "./legacyHasher.js";
import { fastAddress, FastStableHasher } from "./fastHasher.js";
import { legacyEvent, legacyInt } from "./legacyEncoding.js";
import { fastEvent, fastInt } from "./fastEncoding.js";

const FAST_DIGEST_BYTES = 32;

class RegionStream {
  private length = 0;
  private handlerStart = 0;
  private readonly legacy: LegacySetHasher | null;
  private readonly fast: FastStableHasher | null;

  constructor(
    private readonly block: number,
    version: PoiVersion,
  ) {
    this.legacy = version === "legacy" ? new LegacySetHasher() : null;
    this.fast = version === "fast" ? new FastStableHasher() : null;
  }

  write(event: PoiEvent): void {
    const path = [1, 0, this.block, 0, this.length];
    if (this.legacy) legacyEvent(event, LegacySeq.at(path), this.legacy);
    else fastEvent(event, fastAddress(path), this.fast!);
    this.length++;
  }

  startHandler(): void {
    this.handlerStart = this.length;
  }

  /** Events since the current trigger's handlers started. */
  get sinceHandlerStart(): number {
    return this.length - this.handlerStart;
  }

  /** Ends the block: writes the event count, joins the previous digest, answers the new digest. */
  pause(previous: Uint8Array | null): Uint8Array {
    const path = [1, 0, this.block, 0];
    if (this.legacy) {
      legacyInt(this.length, LegacySeq.at(path), this.legacy);
      if (previous) this.legacy.mixin(LegacySetHasher.fromBytes(previous).value);
      return this.legacy.toBytes();
    }
    const fast = this.fast!;
    fastInt(this.length, fastAddress(path), fast);
    if (previous) {
      // A digest of another length (a legacy one) is folded to 32 bytes with SHA-256, as graph-node does.
      const bytes = previous.length === FAST_DIGEST_BYTES ? previous : new Uint8Array(createHash("sha256").update(previous).digest());
      fast.mixin(FastStableHasher.fromBytes(bytes));
    }
    return fast.toBytes();
  }
}

/**
 * One block's proof-of-indexing streams, by causality region (graph-node's ProofOfIndexing). A region
 * gets a stream at its first trigger, even one that writes nothing, and every stream is paused at the
 * block's end.
 */
export class BlockPoi {
  private readonly regions = new Map<string, RegionStream>();

  constructor(
    readonly block: number,
    private readonly version: PoiVersion,
  ) {}

  private region(name: string): RegionStream {
    let r = this.regions.get(name);
    if (!r) this.regions.set(name, (r = new RegionStream(this.block, this.version)));
    return r;
  }

  /** A trigger's handlers start: a deterministic error voids the events from here. */
  startHandler(region: string): void {
    this.region(region).startHandler();
  }

  write(region: string, event: PoiEvent): void {
    this.region(region).write(event);
  }

  /** A handler failed deterministically and its block goes on (`nonFatalErrors`). */
  writeDeterministicError(region: string): void {
    const r = this.region(region);
    r.write({ kind: "DeterministicError", redactedEvents: r.sinceHandlerStart });
  }

  get regionNames(): string[] {
    return [...this.regions.keys()];
  }

  /** The region's new digest, given its digest before this block (null for none). */
  pause(region: string, previous: Uint8Array | null): Uint8Array {
    const r = this.regions.get(region);
    if (!r) throw new Error(`no proof-of-indexing stream for ${region} in block ${this.block}`);
    return r.pause(previous);
  }
}

/** graph-node's causality region name for a chain's triggers: `ethereum/<network>`. */
export function onchainRegion(network: string): string {
  return `ethereum/${network}`;
}
