// Hashes block records on a thread of its own, so that the proof of indexing costs the handlers' thread
// only the recording: the hashing (most of it 2048-bit arithmetic for the legacy hasher) runs beside
// the handlers of the blocks after, on a core that indexing alone leaves mostly idle.
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { hashBlockRecord, type BlockPoiRecord } from "./blockStream.js";
import type { PoiVersion } from "./events.js";
import type { HasherReply, HasherRequest } from "./hasherThread.js";

export interface PoiHasher {
  /** Each region's stream for the block, ended (see hashBlockRecord). */
  hash(record: BlockPoiRecord): Promise<{ name: string; own: Uint8Array }[]>;
  close(): Promise<void>;
}

const bootUrl = new URL("../../lib/workerBoot.mjs", import.meta.url);
const entryUrl = new URL(import.meta.url.endsWith(".ts") ? "./hasherThread.ts" : "./hasherThread.js", import.meta.url);

/** The hasher on its own thread, started at the first block; it never keeps the process alive. */
export function createThreadedPoiHasher(version: PoiVersion): PoiHasher {
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(regions: { name: string; own: Uint8Array }[]): void; reject(err: Error): void }>();
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
  return {
    hash(record) {
      worker ??= start();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker!.postMessage({ id, record, version } satisfies HasherRequest);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

/** The same hashing on the caller's thread (tests, and runs too short to be worth a thread). */
export function createInlinePoiHasher(version: PoiVersion): PoiHasher {
  return {
    hash: async (record) => hashBlockRecord(record, version),
    close: async () => undefined,
  };
}
