// Worker-thread entry of the proof-of-indexing hasher: hashes the journal entries it is sent, in order.
import { parentPort } from "node:worker_threads";
import { hashBlockRecord, type HashedRegions } from "./blockStream.js";
import type { PoiVersion } from "./events.js";
import { decodeJournalEntry } from "./journal.js";
import { createHeapCeiling } from "../../lib/heapCeiling.js";

export type HasherRequest = { id: number; entry: Uint8Array };
export type HashedBlock = { version: PoiVersion; regions: HashedRegions };
export type HasherReply = { id: number; hashed: HashedBlock } | { id: number; error: string };

const HASHER_HEAP_CEILING_MIB = 32;

const port = parentPort;
if (!port) throw new Error("hasherThread must run in a worker thread");
// Its live data is a few blocks' records and the member cache; the rest is spent products.
const keepHeapDown = createHeapCeiling({ floorMiB: HASHER_HEAP_CEILING_MIB });

port.on("message", ({ id, entry }: HasherRequest) => {
  try {
    const { version, record } = decodeJournalEntry(entry);
    port.postMessage({ id, hashed: { version, regions: hashBlockRecord(record, version) } } satisfies HasherReply);
  } catch (err) {
    port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies HasherReply);
  }
  keepHeapDown();
});
