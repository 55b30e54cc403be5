// Hashes block records on a thread of its own, so that the proof of indexing costs the handlers' thread
// only the recording: the hashing (most of it 2048-bit arithmetic for the legacy hasher) runs beside the
// handlers of the blocks after. Blocks hash independently of each other; their digests are joined later,
// in order.
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import type { BlockPoiRecord, HashedRegions } from "./blockStream.js";
import type { PoiVersion } from "./events.js";
import type { HasherReply, HasherRequest } from "./hasherThread.js";

export interface PoiHasher {
  /** Each region's stream for the block, ended (see hashBlockRecord). */
  hash(record: BlockPoiRecord, version: PoiVersion): Promise<HashedRegions>;
}

/**
 * The thread's young generation. V8 lets it grow to 48 MiB (16 MiB semi-spaces) in a thread that
 * allocates this fast, though nearly every 2048-bit product dies at once: 8 MiB measured the same rate
 * with about 17 MiB less resident (20,000 approvals, `npm run bench:node-memory`).
 */
const HASHER_YOUNG_GENERATION_MB = 8;

const bootUrl = new URL("../../lib/workerBoot.mjs", import.meta.url);
const entryUrl = new URL(import.meta.url.endsWith(".ts") ? "./hasherThread.ts" : "./hasherThread.js", import.meta.url);

/**
 * The hasher on a thread of its own, started now so that its start-up (module loading) is done before
 * the first block; it never keeps the process alive, and a thread that failed is started again at the
 * next block. One thread: on two cores, a second one measured no faster (the legacy hasher's work is CPU
 * the machine does not have to spare).
 */
export function createThreadedPoiHasher(): PoiHasher {
  const waiting = new Map<number, { resolve(regions: HashedRegions): void; reject(err: Error): void }>();
  let nextId = 0;
  let worker: Worker | null = null;
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  };
  function start(): Worker {
    const w = new Worker(fileURLToPath(bootUrl), { workerData: { entry: entryUrl.href }, resourceLimits: { maxYoungGenerationSizeMb: HASHER_YOUNG_GENERATION_MB } });
    w.unref();
    w.on("message", (reply: HasherReply) => {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ("error" in reply) pending?.reject(new Error(`proof-of-indexing hasher: ${reply.error}`));
      else pending?.resolve(reply.regions);
    });
    w.on("error", (err) => failAll(new Error(`proof-of-indexing hasher thread failed: ${err.message}`)));
    w.on("exit", (code) => failAll(new Error(`proof-of-indexing hasher thread ended (exit code ${code})`)));
    return w;
  }
  worker = start();
  return {
    hash(record, version) {
      const id = nextId++;
      const thread = (worker ??= start());
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread.postMessage({ id, record, version } satisfies HasherRequest);
      });
    },
  };
}
