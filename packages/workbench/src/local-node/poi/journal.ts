// A block's proof-of-indexing record as the store keeps it until it is hashed: the events in the
// order the handlers wrote them, and the hasher the deployment uses. The proof then follows the data:
// the handlers' path only records, and the hashing (the costly part) runs when the proof is asked for
// or the node is idle, from these bytes, with the same result as hashing at once.
import { deserialize } from "node:v8";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { EntityChange } from "../../wasm-host/index.js";
import type { BlockPoiRecord } from "./blockStream.js";
import type { PoiVersion } from "./events.js";
import { ByteWriter, JOURNAL_FORMAT, joinRegions, readJournalBytes, RegionWriter } from "./journalCodec.js";

export interface JournalEntry {
  version: PoiVersion;
  record: BlockPoiRecord;
}

/**
 * Deflated: the ids and values left after the codec's own sharing still make it about three times
 * smaller, and it is written to the store and read back once.
 */
const DEFLATE_LEVEL = 1;
/** The largest buffer a recorder keeps between blocks (a 500-approval block takes about 100 KB). */
const KEPT_WRITER_BYTES = 1 << 20;
/** Entries written before journalCodec.ts were V8's serialization, which starts with this byte. */
const V8_SERIALIZED = 0xff;

export function encodeJournalEntry(entry: JournalEntry): Uint8Array {
  const regions = entry.record.regions.map(({ name, events }): [string, RegionWriter] => {
    const writer = new RegionWriter();
    for (const e of events) writer.event(e);
    return [name, writer];
  });
  return deflateRawSync(joinRegions(entry.version, entry.record.block, regions, new ByteWriter()), { level: DEFLATE_LEVEL });
}

export function decodeJournalEntry(bytes: Uint8Array): JournalEntry {
  let entry: Partial<JournalEntry> | null = null;
  try {
    const inflated = inflateRawSync(bytes);
    entry = inflated[0] === V8_SERIALIZED ? (deserialize(inflated) as Partial<JournalEntry> | null) : inflated[0] === JOURNAL_FORMAT ? readJournalBytes(inflated) : null;
  } catch {
    // Reported below, as any other bytes that are no entry.
  }
  if (!entry || (entry.version !== "legacy" && entry.version !== "fast") || !Array.isArray(entry.record?.regions)) {
    throw new Error("not a proof-of-indexing journal entry");
  }
  return entry as JournalEntry;
}

/**
 * Records a block's events straight into the journal's bytes, for the handlers' thread: nothing of the
 * entity is kept (the store goes on to change the map it passed) and no event objects live until the
 * block ends. Regions get a stream at their first trigger, as BlockPoiRecorder's do; the writers are
 * reused from block to block.
 */
export class JournalRecorder {
  private readonly regions = new Map<string, { writer: RegionWriter; handlerStart: number }>();
  private readonly spare: RegionWriter[] = [];
  private joined = new ByteWriter();
  private block = 0;

  constructor(private readonly version: PoiVersion) {}

  /** Starts the next block's record, dropping what the last one had. */
  begin(block: number): void {
    // A writer that an unusually large block grew is let go rather than kept for every block after.
    for (const { writer } of this.regions.values()) if (writer.out.bytes.length <= KEPT_WRITER_BYTES) this.spare.push(writer);
    this.regions.clear();
    if (this.joined.bytes.length > KEPT_WRITER_BYTES) this.joined = new ByteWriter();
    this.block = block;
  }

  private region(name: string): { writer: RegionWriter; handlerStart: number } {
    let r = this.regions.get(name);
    if (!r) {
      const writer = this.spare.pop() ?? new RegionWriter();
      writer.reset();
      this.regions.set(name, (r = { writer, handlerStart: 0 }));
    }
    return r;
  }

  /** A trigger's handlers start: a deterministic error voids the events from here. */
  startHandler(region: string): void {
    const r = this.region(region);
    r.handlerStart = r.writer.count;
  }

  write(region: string, change: EntityChange): void {
    const { writer } = this.region(region);
    if (change.op === "set") writer.set(change.entityType, change.id, change.data);
    else writer.remove(change.entityType, change.id);
  }

  /** A handler failed deterministically: how many of its trigger's events no longer reach the store. */
  writeDeterministicError(region: string): void {
    const r = this.region(region);
    r.writer.deterministicError(r.writer.count - r.handlerStart);
  }

  /** The block's entry, or null when none of its regions had a trigger (the proof stays as it was). */
  finish(): { entry: Uint8Array; regions: string[] } | null {
    if (this.regions.size === 0) return null;
    const regions = [...this.regions].map(([name, r]): [string, RegionWriter] => [name, r.writer]);
    const raw = joinRegions(this.version, this.block, regions, this.joined);
    return { entry: deflateRawSync(raw, { level: DEFLATE_LEVEL }), regions: regions.map(([name]) => name) };
  }
}
