// A block's proof-of-indexing record as the store keeps it until it is hashed: the events in the
// order the handlers wrote them, and the hasher the deployment uses. The proof then follows the data:
// the handlers' path only records, and the hashing (the costly part) runs when the proof is asked for
// or the node is idle, from these bytes, with the same result as hashing at once.
import { deserialize, serialize } from "node:v8";
import type { BlockPoiRecord } from "./blockStream.js";
import type { PoiVersion } from "./events.js";

export interface JournalEntry {
  version: PoiVersion;
  record: BlockPoiRecord;
}

export function encodeJournalEntry(entry: JournalEntry): Uint8Array {
  return serialize(entry);
}

export function decodeJournalEntry(bytes: Uint8Array): JournalEntry {
  const entry = deserialize(bytes) as Partial<JournalEntry> | null;
  if (!entry || (entry.version !== "legacy" && entry.version !== "fast") || !Array.isArray(entry.record?.regions)) {
    throw new Error("not a proof-of-indexing journal entry");
  }
  return entry as JournalEntry;
}
