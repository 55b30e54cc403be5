// Main-thread side of the host worker: starts it, sends block batches, and answers its synchronous
// store and chain requests (posting the answer, then waking the worker through the shared flag).
import { MessageChannel, Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import type { BlockPtr, EntityData, EthereumCallRequest, EthereumValue, LogLevel } from "../../wasm-host/index.js";
import type {
  BlockJob,
  BlockResult,
  CreatedDataSource,
  HandlerFailure,
  JobBlockPtr,
  SyncRequest,
  SyncResponse,
  Trigger,
  WorkerCommand,
  WorkerDataSource,
  WorkerInit,
  WorkerReply,
  WorkerTemplate,
} from "./hostProtocol.js";
import { IndexerError } from "./errors.js";

/** What the worker may ask for while a handler runs. */
export interface HostServices {
  getEntity(entityType: string, id: string): Promise<EntityData | null>;
  /** Every id of the entity type in the store. */
  entityIds(entityType: string): Promise<string[]>;
  getDerived(entityType: string, field: string, id: string): Promise<EntityData[]>;
  ethereumCall(call: EthereumCallRequest): Promise<EthereumValue[] | null>;
  getBalance(address: string, block: BlockPtr | null): Promise<bigint>;
  hasCode(address: string, block: BlockPtr | null): Promise<boolean>;
  /** The triggers in `block` of data sources its handlers just created. */
  triggersIn(block: JobBlockPtr, dataSources: CreatedDataSource[]): Promise<Trigger[]>;
}

export interface HostWorkerOptions {
  schemaSdl: string;
  dataSources: WorkerDataSource[];
  templates?: WorkerTemplate[];
  /** Data sources created earlier, in creation order. */
  created?: CreatedDataSource[];
  services: HostServices;
  log(level: LogLevel, message: string): void;
  cacheSize?: number;
  memoryLimitBytes?: number;
  /** A thread started earlier (see HostThreadPool); a new one otherwise. */
  thread?: HostThread;
}

export interface HostWorker {
  run(blocks: BlockJob[]): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }>;
  /** Forgets cached entities and every data source past the first `dataSources`. */
  reset(dataSources: number): Promise<void>;
  terminate(): Promise<void>;
  /** What the worker is doing, for slow-step reports: runs in flight and store requests being answered. */
  describe(): string;
}

const bootUrl = new URL("./hostWorkerBoot.mjs", import.meta.url);
const entryUrl = new URL(import.meta.url.endsWith(".ts") ? "./hostWorker.ts" : "./hostWorker.js", import.meta.url);

/** A worker thread that has loaded the WASM host and waits to be given a deployment. */
export interface HostThread {
  readonly worker: Worker;
  /** Resolves once the host's modules are loaded; rejects if the thread died first. */
  readonly loaded: Promise<void>;
}

/** Starts a thread and loads the host in it (module loading is most of a worker's start-up). */
export function startHostThread(): HostThread {
  const worker = new Worker(fileURLToPath(bootUrl), { workerData: { entry: entryUrl.href } });
  const loaded = new Promise<void>((resolve, reject) => {
    const onMessage = (msg: WorkerReply) => {
      if (msg.type !== "loaded") return;
      worker.off("message", onMessage);
      resolve();
    };
    worker.on("message", onMessage);
    worker.once("error", (err) => reject(new IndexerError(`host worker crashed while loading: ${err.message}`, { cause: err })));
    worker.once("exit", (code) => reject(new IndexerError(`host worker exited (${code}) while loading`)));
  });
  loaded.catch(() => {}); // reported to whoever awaits it
  return { worker, loaded };
}

/**
 * Keeps one loaded thread ready, so a deployment starts on a warm host (graph-node's runtime is
 * likewise up before any deployment arrives). take() hands it out and starts the next spare.
 */
export interface HostThreadPool {
  take(): HostThread;
  /** Resolves when the spare has loaded. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export function createHostThreadPool(): HostThreadPool {
  // An idle spare does not keep the process alive; a taken thread does, as any running worker.
  const startSpare = (): HostThread => {
    const thread = startHostThread();
    thread.worker.unref();
    return thread;
  };
  let spare: HostThread | null = startSpare();
  let closed = false;
  return {
    take() {
      const thread = spare ?? startHostThread();
      thread.worker.ref();
      spare = closed ? null : startSpare();
      return thread;
    },
    async warm() {
      await spare?.loaded;
    },
    async close() {
      closed = true;
      const last = spare;
      spare = null;
      await last?.worker.terminate();
    },
  };
}

export async function createHostWorker(options: HostWorkerOptions): Promise<HostWorker> {
  const thread = options.thread ?? startHostThread();
  const worker = thread.worker;
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const init: WorkerInit = {
    schemaSdl: options.schemaSdl,
    dataSources: options.dataSources,
    templates: options.templates ?? [],
    created: options.created ?? [],
    signal,
    port: port2 as unknown as MessagePort,
    ...(options.cacheSize === undefined ? {} : { cacheSize: options.cacheSize }),
    ...(options.memoryLimitBytes === undefined ? {} : { memoryLimitBytes: options.memoryLimitBytes }),
  };

  async function answer(req: SyncRequest): Promise<SyncResponse> {
    try {
      const s = options.services;
      switch (req.type) {
        case "get":
          return { ok: true, value: await s.getEntity(req.entityType, req.id) };
        case "ids":
          return { ok: true, value: await s.entityIds(req.entityType) };
        case "getDerived":
          return { ok: true, value: await s.getDerived(req.entityType, req.field, req.id) };
        case "call":
          return { ok: true, value: await s.ethereumCall(req.call) };
        case "balance":
          return { ok: true, value: await s.getBalance(req.address, req.block) };
        case "hasCode":
          return { ok: true, value: await s.hasCode(req.address, req.block) };
        case "triggersIn":
          return { ok: true, value: await s.triggersIn(req.block, req.dataSources) };
        default:
          return { ok: false, message: `unknown request ${(req as { type: string }).type}` };
      }
    } catch (err) {
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
  }

  // Requests being answered, with when they arrived (for describe()).
  const answering = new Map<SyncRequest, number>();
  port1.on("message", (req: SyncRequest) => {
    answering.set(req, Date.now());
    void answer(req).then((res) => {
      answering.delete(req);
      port1.postMessage(res);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
  });

  let nextId = 1;
  const waiting = new Map<number, { resolve(r: { results: BlockResult[]; failure: HandlerFailure | null }): void; reject(e: Error): void }>();
  let dead: Error | null = null;
  let readyResolve: () => void = () => {};
  let readyReject: (e: Error) => void = () => {};
  const ready = new Promise<void>((res, rej) => ((readyResolve = res), (readyReject = rej)));

  function die(err: Error): void {
    dead ??= err;
    readyReject(err);
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  }

  worker.on("message", (msg: WorkerReply) => {
    if (msg.type === "ready") readyResolve();
    else if (msg.type === "log") options.log(msg.level, msg.message);
    else if (msg.type === "fatal") die(new IndexerError(`mapping could not start: ${msg.message}`));
    else if (msg.type === "done") {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      w?.resolve({ results: msg.results, failure: msg.failure });
    }
  });
  worker.on("error", (err) => die(new IndexerError(`host worker crashed: ${err.message}`, { cause: err })));
  worker.on("exit", (code) => die(new IndexerError(`host worker exited (${code})`)));

  function send(cmd: { type: "run"; blocks: BlockJob[] } | { type: "reset"; dataSources: number }): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...cmd, id } as WorkerCommand);
    });
  }

  try {
    await thread.loaded;
    worker.postMessage({ type: "init", ...init } satisfies WorkerCommand, [port2]);
    await ready;
  } catch (err) {
    await worker.terminate();
    port1.close();
    throw err;
  }

  return {
    run: (blocks) => send({ type: "run", blocks }),
    async reset(dataSources) {
      await send({ type: "reset", dataSources });
    },
    describe() {
      const now = Date.now();
      const requests = [...answering].map(([req, at]) => `${req.type} (${now - at} ms)`);
      return `${waiting.size} run(s) in flight, ${requests.length ? `answering ${requests.join(", ")}` : "no store request pending"}${dead ? `, dead: ${dead.message}` : ""}`;
    },
    async terminate() {
      dead ??= new IndexerError("host worker terminated");
      port1.close();
      await worker.terminate();
    },
  };
}
