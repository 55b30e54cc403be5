// Hashes journal entries (a block's recorded events) on a thread of its own, so that the main thread
// stays free to answer queries and commit blocks while a deployment's proof catches up. Blocks hash
// independently of each other; their digests are joined later, in order.
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import type { HashedBlock, HasherReply, HasherRequest } from "./hasherThread.js";

export type { HashedBlock } from "./hasherThread.js";

export interface PoiHasher {
  /** Each region's stream for the entry's block, ended (see hashBlockRecord). */
  hash(entry: Uint8Array): Promise<HashedBlock>;
  /** Ends the thread; a later `hash` starts a new one. */
  close(): Promise<void>;
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
 * The hasher on a thread of its own, started at the first `hash`; it never keeps the process alive,
 * and a thread that failed is started again at the next entry. One thread: on two cores, a second one
 * measured no faster.
 */
export function createThreadedPoiHasher(): PoiHasher {
  const waiting = new Map<number, { resolve(hashed: HashedBlock): void; reject(err: Error): void }>();
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
      else pending?.resolve(reply.hashed);
    });
    w.on("error", (err) => {
      if (worker === w) failAll(new Error(`proof-of-indexing hasher thread failed: ${err.message}`));
    });
    w.on("exit", (code) => {
      if (worker === w) failAll(new Error(`proof-of-indexing hasher thread ended (exit code ${code})`));
    });
    return w;
  }
  return {
    hash(entry) {
      const id = nextId++;
      const thread = (worker ??= start());
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread.postMessage({ id, entry } satisfies HasherRequest);
      });
    },
    async close() {
      const w = worker;
      if (!w) return;
      failAll(new Error("proof-of-indexing hasher closed"));
      await w.terminate();
    },
  };
}
