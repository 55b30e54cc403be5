// Hashes block records on a thread of its own, so that the proof of indexing costs the handlers' thread
// only the recording: the hashing (most of it 2048-bit arithmetic for the legacy hasher) runs beside the
// handlers of the blocks after. Blocks hash independently of each other; their digests are joined later,
// in order.
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { hashBlockRecord, type BlockPoiRecord } from "./blockStream.js";
import type { PoiVersion } from "./events.js";
import type { HasherReply, HasherRequest } from "./hasherThread.js";

export interface PoiHasher {
  /** Each region's stream for the block, ended (see hashBlockRecord). */
  hash(record: BlockPoiRecord, version: PoiVersion): Promise<{ name: string; own: Uint8Array }[]>;
  close(): Promise<void>;
}

const bootUrl = new URL("../../lib/workerBoot.mjs", import.meta.url);
const entryUrl = new URL(import.meta.url.endsWith(".ts") ? "./hasherThread.ts" : "./hasherThread.js", import.meta.url);

type Waiting = { resolve(regions: { name: string; own: Uint8Array }[]): void; reject(err: Error): void };

/** One hashing thread, started now; it never keeps the process alive. */
function startHasherThread(): { post(request: HasherRequest, waiting: Waiting): void; close(): Promise<void> } {
  const waiting = new Map<number, Waiting>();
  let worker: Worker | null = null;
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  };
  function start(): Worker {
    const w = new Worker(fileURLToPath(bootUrl), { workerData: { entry: entryUrl.href } });
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
    post(request, w) {
      worker ??= start();
      waiting.set(request.id, w);
      worker.postMessage(request);
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

/**
 * The hasher on a thread of its own, started now so that its start-up (module loading) is done before
 * the first block. One thread: on two cores, a second one measured no faster (the legacy hasher's work
 * is CPU the machine does not have to spare).
 */
export function createThreadedPoiHasher(): PoiHasher {
  const thread = startHasherThread();
  let nextId = 0;
  return {
    hash(record, version) {
      const id = nextId++;
      return new Promise((resolve, reject) => thread.post({ id, record, version }, { resolve, reject }));
    },
    close: () => thread.close(),
  };
}

/** The same hashing on the caller's thread (tests, and runs too short to be worth a thread). */
export function createInlinePoiHasher(): PoiHasher {
  return {
    hash: async (record, version) => hashBlockRecord(record, version),
    close: async () => undefined,
  };
}
