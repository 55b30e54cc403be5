// Worker-thread entry: runs a HostRuntime and answers the indexer's commands. Store reads and
// ethereum calls block this thread on Atomics.wait until the main thread posts the answer.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";
import { createHostRuntime } from "./hostRuntime.js";
import type { SyncRequest, SyncResponse, WorkerCommand, WorkerInit, WorkerReply } from "./hostProtocol.js";

const init = workerData as WorkerInit;
const port = init.port as unknown as MessagePort;
const flag = new Int32Array(init.signal);
const out = parentPort;
if (!out) throw new Error("hostWorker must run in a worker thread");

function post(reply: WorkerReply): void {
  out!.postMessage(reply);
}

function request(req: SyncRequest): SyncResponse {
  Atomics.store(flag, 0, 0);
  port.postMessage(req);
  for (;;) {
    Atomics.wait(flag, 0, 0, 1000);
    const msg = receiveMessageOnPort(port);
    if (msg) return msg.message as SyncResponse;
  }
}

createHostRuntime({
  schemaSdl: init.schemaSdl,
  dataSources: init.dataSources,
  ...(init.cacheSize === undefined ? {} : { cacheSize: init.cacheSize }),
  ...(init.memoryLimitBytes === undefined ? {} : { memoryLimitBytes: init.memoryLimitBytes }),
  request,
  log: (level, message) => post({ type: "log", level, message }),
}).then(
  (runtime) => {
    // One command at a time: runs are async (instances are replaced between blocks).
    let queue: Promise<void> = Promise.resolve();
    out.on("message", (cmd: WorkerCommand) => {
      queue = queue.then(() => handle(cmd));
    });
    async function handle(cmd: WorkerCommand): Promise<void> {
      if (cmd.type === "reset") {
        runtime.reset();
        post({ type: "done", id: cmd.id, results: [], failure: null });
        return;
      }
      try {
        const { results, failure } = await runtime.runBlocks(cmd.blocks);
        post({ type: "done", id: cmd.id, results, failure });
      } catch (err) {
        // Outside any handler (e.g. the main thread could not answer a bulk read): retryable.
        const first = cmd.blocks[0];
        const message = err instanceof Error ? err.message : String(err);
        post({ type: "done", id: cmd.id, results: [], failure: first ? { message, deterministic: false, handler: null, block: first.ptr } : null });
      }
    }
    post({ type: "ready" });
  },
  (err: unknown) => post({ type: "fatal", message: err instanceof Error ? err.message : String(err) }),
);
