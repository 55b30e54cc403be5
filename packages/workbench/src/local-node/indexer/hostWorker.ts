// Worker-thread entry: loads the WASM host, waits for the deployment it serves (the "init" message),
// then runs a HostRuntime and answers the indexer's commands. Store reads and ethereum calls block
// this thread on Atomics.wait until the main thread posts the answer.
import { parentPort, receiveMessageOnPort } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";
import { createHostRuntime, type HostRuntime } from "./hostRuntime.js";
import { capMappingMemory } from "./memoryCap.js";
import { unpackRun } from "./runCodec.js";
import type { SyncRequest, SyncResponse, WorkerCommand, WorkerInit, WorkerReply } from "./hostProtocol.js";

const out = parentPort;
if (!out) throw new Error("hostWorker must run in a worker thread");

function post(reply: WorkerReply): void {
  out!.postMessage(reply);
}

function requester(init: WorkerInit): (req: SyncRequest) => SyncResponse {
  const port = init.port as unknown as MessagePort;
  const flag = new Int32Array(init.signal);
  return (req) => {
    Atomics.store(flag, 0, 0);
    port.postMessage(req);
    for (;;) {
      Atomics.wait(flag, 0, 0, 1000);
      const msg = receiveMessageOnPort(port);
      if (msg) return msg.message as SyncResponse;
    }
  };
}

async function start(init: WorkerInit): Promise<HostRuntime> {
  const mappings = init.maxMemoryMb === undefined ? init : capMappingMemory(init.dataSources, init.templates, init.maxMemoryMb);
  return createHostRuntime({
    schemaSdl: init.schemaSdl,
    dataSources: mappings.dataSources,
    templates: mappings.templates,
    ...(init.maxMemoryMb === undefined ? {} : { maxMemoryMb: init.maxMemoryMb }),
    created: init.created,
    ...(init.cacheSize === undefined ? {} : { cacheSize: init.cacheSize }),
    ...(init.memoryLimitBytes === undefined ? {} : { memoryLimitBytes: init.memoryLimitBytes }),
    ...(init.nonFatalErrors ? { nonFatalErrors: true } : {}),
    ...(init.poi ? { poi: init.poi } : {}),
    ...(init.copyPlan ? { copyPlan: init.copyPlan } : {}),
    ...(init.debugFork ? { debugFork: true } : {}),
    ...(init.profile === false ? { profile: false } : {}),
    request: requester(init),
    log: (level, message, mapping) => post(mapping ? { type: "log", level, message, mapping } : { type: "log", level, message }),
  });
}

let runtime: Promise<HostRuntime> | null = null;
// One command at a time: runs are async (instances are replaced between blocks).
let queue: Promise<void> = Promise.resolve();

out.on("message", (cmd: WorkerCommand) => {
  if (cmd.type === "init") {
    runtime = start(cmd);
    runtime.then(
      () => post({ type: "ready" }),
      (err: unknown) => post({ type: "fatal", message: err instanceof Error ? err.message : String(err) }),
    );
    return;
  }
  // Every command gets its "done", even when answering it throws (the indexer waits for each one).
  // Such a failure is outside any handler, e.g. the main thread could not answer a bulk read: retryable.
  queue = queue.then(() => handle(cmd)).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    const first = cmd.type === "run" ? cmd.run.blocks[0] : undefined;
    post({ type: "done", id: cmd.id, results: [], failure: first ? { message, deterministic: false, handler: null, block: first.ptr } : null });
  });
});

async function handle(cmd: Exclude<WorkerCommand, { type: "init" }>): Promise<void> {
  if (!runtime) throw new Error("hostWorker got a command before its init");
  const host = await runtime;
  if (cmd.type === "reset") {
    host.reset(cmd.dataSources, cmd.waitingFiles);
    post({ type: "done", id: cmd.id, results: [], failure: null });
    return;
  }
  const { results, failure, profile } = await host.runBlocks(unpackRun(cmd.run));
  post({ type: "done", id: cmd.id, results, failure, profile });
}

post({ type: "loaded" });
