// A block's proof-of-indexing record as the store keeps it until it is hashed: the events in the
// order the handlers wrote them, and the hasher the deployment uses. The proof then follows the data:
// the handlers' path only records, and the hashing (the costly part) runs when the proof is asked for
// or the node is idle, from these bytes, with the same result as hashing at once.
import { deserialize, serialize } from "node:v8";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { BlockPoiRecord } from "./blockStream.js";
import type { PoiVersion } from "./events.js";

export interface JournalEntry {
  version: PoiVersion;
  record: BlockPoiRecord;
}

/**
 * V8's serialization, deflated: the field names and kinds that every event repeats make it about three
 * times smaller (a 500-approval block 194 -> 66 KB, 1.5 ms more on the handlers' thread), and it is
 * written to the store and read back once.
 */
const DEFLATE_LEVEL = 1;

export function encodeJournalEntry(entry: JournalEntry): Uint8Array {
  return deflateRawSync(serialize(entry), { level: DEFLATE_LEVEL });
}

export function decodeJournalEntry(bytes: Uint8Array): JournalEntry {
  let entry: Partial<JournalEntry> | null = null;
  try {
    entry = deserialize(inflateRawSync(bytes)) as Partial<JournalEntry> | null;
  } catch {
    // Reported below, as any other bytes that are no entry.
  }
  if (!entry || (entry.version !== "legacy" && entry.version !== "fast") || !Array.isArray(entry.record?.regions)) {
    throw new Error("not a proof-of-indexing journal entry");
  }
  return entry as JournalEntry;
}
