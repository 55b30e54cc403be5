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
  MappingLogOrigin,
  PoiSettings,
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
import { packRun } from "./runCodec.js";
import { answeredFromCache } from "./chainOrigin.js";
import type { ProfileDelta } from "./handlerProfile.js";
import type { CopyPlan } from "../store/index.js";

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
  /** A file data source's file (`<cid>[/path]`) from the node's IPFS; null when it is not there. */
  readFile?(path: string): Promise<Uint8Array | null>;
  /** The deployment's debug fork (local-node/fork): the entity from the fork base, or null. */
  forkFetch?(entityType: string, id: string): Promise<EntityData | null>;
}

export interface HostWorkerOptions {
  schemaSdl: string;
  dataSources: WorkerDataSource[];
  templates?: WorkerTemplate[];
  /** Data sources created earlier, in creation order. */
  created?: CreatedDataSource[];
  services: HostServices;
  log(level: LogLevel, message: string): void;
  /** A mapping's `log.*` line; without it the line goes to `log` as `[<data source>] <message>`. */
  mappingLog?(level: LogLevel, message: string, origin: MappingLogOrigin): void;
  cacheSize?: number;
  memoryLimitBytes?: number;
  /** The manifest declares `nonFatalErrors`. */
  nonFatalErrors?: boolean;
  /** Keep graph-node's proof of indexing. */
  poi?: PoiSettings;
  /** The store's immutable tables, where it takes their rows as COPY lines (NodeStore.copyPlan). */
  copyPlan?: CopyPlan;
  /** A thread started earlier (see HostThreadPool); a new one otherwise. */
  thread?: HostThread;
  /** What each run's handlers cost (handlerProfile.ts), as the runs answer. */
  onProfile?(delta: ProfileDelta): void;
  /** false: the handlers' thread keeps no profile (to measure its cost). */
  profile?: boolean;
}

export interface HostWorker {
  /**
   * Runs the blocks' handlers. A run whose handlers compute past the handler timeout without calling
   * the host, or whose thread runs out of heap, resolves with a deterministic failure at the run's first
   * block (the thread is ended; nothing of the run is kept).
   */
  run(blocks: BlockJob[]): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }>;
  /** Forgets cached entities and every data source past the first `dataSources`; `waitingFiles` as HostRuntime.reset. */
  reset(dataSources: number, waitingFiles?: number[]): Promise<void>;
  terminate(): Promise<void>;
  /**
   * Ends the thread at once, even with a handler stuck in a loop: runs in flight reject with `reason`,
   * and reset() and terminate() become no-ops (the deployment is stopping; nothing restarts the thread).
   */
  interrupt(reason: string): Promise<void>;
  /** True while a run is in flight. */
  readonly busy: boolean;
  /** What the worker is doing, for slow-step reports: runs in flight and store requests being answered. */
  describe(): string;
}

/** What a mapping may spend in its host worker thread. */
export interface MappingLimits {
  /**
   * How long a run's handlers may compute without calling the host (a store miss, eth_call, a log)
   * before the deployment fails; the time the thread waits for the main thread's answers does not
   * count. Set with GRAPH_MAPPING_HANDLER_TIMEOUT (seconds), which in graph-node bounds one handler.
   */
  handlerTimeoutMs: number;
  /** The thread's V8 heap (Worker resourceLimits.maxOldGenerationSizeMb); the mapping's WASM memory is apart. */
  maxHeapMb: number;
  /**
   * Each mapping instance's linear memory (the maximum written into its memory section), which V8's heap
   * limit does not cover. Set with LOCAL_NODE_MAPPING_MAX_MEMORY_MB; graph-node has no such setting (a
   * handler there may grow its memory to wasm32's 4 GiB, gas permitting).
   */
  maxMemoryMb: number;
}

/**
 * graph-node has no handler timeout by default, and stops a runaway handler by gas (about 1,000 s of
 * instructions, deterministically). This host meters no gas: a minute of silent computation stands in.
 */
export const DEFAULT_MAPPING_LIMITS: MappingLimits = { handlerTimeoutMs: 60_000, maxHeapMb: 2048, maxMemoryMb: 1024 };

/**
 * GRAPH_MAPPING_HANDLER_TIMEOUT (seconds, as graph-node reads it) and LOCAL_NODE_MAPPING_MAX_MEMORY_MB
 * (whole MB, 1 to 4096: wasm32's range) for the CLIs; a malformed value throws.
 */
export function mappingLimitsFromEnv(env: Record<string, string | undefined>): Partial<MappingLimits> {
  const limits: Partial<MappingLimits> = {};
  const timeout = env.GRAPH_MAPPING_HANDLER_TIMEOUT?.trim();
  if (timeout !== undefined && timeout !== "") {
    const seconds = Number(timeout);
    if (!(seconds > 0) || !Number.isFinite(seconds)) throw new IndexerError(`GRAPH_MAPPING_HANDLER_TIMEOUT must be a number of seconds above 0, got ${JSON.stringify(env.GRAPH_MAPPING_HANDLER_TIMEOUT)}`);
    limits.handlerTimeoutMs = seconds * 1000;
  }
  const memory = env.LOCAL_NODE_MAPPING_MAX_MEMORY_MB?.trim();
  if (memory !== undefined && memory !== "") {
    const mb = Number(memory);
    if (!Number.isInteger(mb) || mb < 1 || mb > 4096) throw new IndexerError(`LOCAL_NODE_MAPPING_MAX_MEMORY_MB must be a whole number of MB from 1 to 4096, got ${JSON.stringify(env.LOCAL_NODE_MAPPING_MAX_MEMORY_MB)}`);
    limits.maxMemoryMb = mb;
  }
  return limits;
}

/** How often the main thread looks at a run in flight (the timeout's resolution). */
const GUARD_TICK_MS = 250;

const bootUrl = new URL("../../lib/workerBoot.mjs", import.meta.url);
const entryUrl = new URL(import.meta.url.endsWith(".ts") ? "./hostWorker.ts" : "./hostWorker.js", import.meta.url);

/** A worker thread that has loaded the WASM host and waits to be given a deployment. */
export interface HostThread {
  readonly worker: Worker;
  /** Resolves once the host's modules are loaded; rejects if the thread died first. */
  readonly loaded: Promise<void>;
  /** The limits the thread was started with, and that its runs are held to. */
  readonly limits: MappingLimits;
}

/**
 * The thread's young generation: as the hashing thread's (local-node/poi), 8 MiB instead of V8's 48 for a
 * thread that allocates fast. A run's short-lived data (decoded events, a handler's values) dies young
 * either way; the rate measured the same, the heap about 18 MiB smaller.
 */
const HOST_YOUNG_GENERATION_MB = 8;

/** Starts a thread and loads the host in it (module loading is most of a worker's start-up). */
export function startHostThread(limits: MappingLimits = DEFAULT_MAPPING_LIMITS): HostThread {
  const worker = new Worker(fileURLToPath(bootUrl), { workerData: { entry: entryUrl.href }, resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: HOST_YOUNG_GENERATION_MB } });
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
  return { worker, loaded, limits };
}

/**
 * Keeps one loaded thread ready, so a deployment starts on a warm host (graph-node's runtime is
 * likewise up before any deployment arrives). take() hands it out; the next spare is asked for with
 * replenish(), which a deployment calls once it has synced, and loads once no handler has run for
 * SPARE_QUIET_MS. Loaded while a deployment catches up, a spare only adds its memory (a host thread and its
 * hashing thread, about 60 MiB) to the peak; loaded beside a running handler, it takes that handler's
 * CPU on a small machine.
 *
 * Only a pool that keeps a spare (`keepSpare`: the dev loop, which deploys on every save) loads one
 * after the first: elsewhere a later deployment is rare, and loading its thread when it starts (about
 * 200 ms) beats holding 40-50 MiB for it meanwhile.
 */
export interface HostThreadPool {
  take(): HostThread;
  /** Asks for a spare unless one is there or asked for: it loads once the node is quiet. */
  replenish(): void;
  /** A run under way: no spare starts loading until it settles and SPARE_QUIET_MS more have passed. */
  running(run: Promise<unknown>): void;
  /** Whether a spare is there (loaded or loading). */
  hasSpare(): boolean;
  /** Resolves when the spare has loaded, starting an asked-for one now. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** How long no handler must have run before a spare loads. */
export const SPARE_QUIET_MS = 2_000;

/** Longest a closing pool waits for its spare to finish loading before ending it anyway. */
const SPARE_LOAD_WAIT_MS = 30_000;

export interface HostThreadPoolOptions {
  /** Load a spare again after a deployment syncs (replenish); otherwise only the first is loaded ahead. */
  keepSpare?: boolean;
  /** How long no handler must have run before a spare loads (default SPARE_QUIET_MS). */
  quietMs?: number;
  startThread?: (limits: MappingLimits) => HostThread;
}

export function createHostThreadPool(limits: MappingLimits = DEFAULT_MAPPING_LIMITS, options: HostThreadPoolOptions = {}): HostThreadPool {
  const { keepSpare = false, quietMs = SPARE_QUIET_MS, startThread = startHostThread } = options;
  // An idle spare does not keep the process alive; a taken thread does, as any running worker.
  const startSpare = (): HostThread => {
    const thread = startThread(limits);
    thread.worker.unref();
    return thread;
  };
  let spare: HostThread | null = startSpare();
  let closed = false;
  let asked = false;
  let runs = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const load = () => {
    if (!asked || closed) return;
    asked = false;
    spare ??= startSpare();
  };
  const waitForQuiet = () => {
    if (timer) clearTimeout(timer);
    timer = asked && runs === 0 ? setTimeout(() => ((timer = null), load()), quietMs).unref() : null;
  };
  return {
    take() {
      const thread = spare ?? startThread(limits);
      thread.worker.ref();
      spare = null;
      // The deployment that takes it asks again once it has synced.
      asked = false;
      waitForQuiet();
      return thread;
    },
    replenish() {
      if (!keepSpare || closed || spare || asked) return;
      asked = true;
      waitForQuiet();
    },
    running(run) {
      runs++;
      waitForQuiet();
      const settled = () => {
        runs--;
        waitForQuiet();
      };
      run.then(settled, settled);
    },
    hasSpare() {
      return spare !== null;
    },
    async warm() {
      if (timer) clearTimeout(timer);
      timer = null;
      load();
      await spare?.loaded;
    },
    async close() {
      closed = true;
      asked = false;
      if (timer) clearTimeout(timer);
      const last = spare;
      spare = null;
      if (!last) return;
      // Ended once loaded: V8 aborts the whole process when a thread is terminated while a module with
      // top-level await (the thread's boot awaits its entry) is finishing its evaluation.
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([last.loaded.catch(() => {}), new Promise((resolve) => (waited = setTimeout(resolve, SPARE_LOAD_WAIT_MS)))]);
      clearTimeout(waited);
      await last.worker.terminate();
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
    ...(options.nonFatalErrors ? { nonFatalErrors: true } : {}),
    ...(options.poi ? { poi: options.poi } : {}),
    ...(options.copyPlan ? { copyPlan: options.copyPlan } : {}),
    ...(options.services.forkFetch ? { debugFork: true } : {}),
    ...(options.profile === false ? { profile: false } : {}),
    maxMemoryMb: thread.limits.maxMemoryMb,
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
        case "call": {
          const { value, cached } = await answeredFromCache(() => s.ethereumCall(req.call));
          return { ok: true, value, cached };
        }
        case "balance":
          return { ok: true, value: await s.getBalance(req.address, req.block) };
        case "hasCode":
          return { ok: true, value: await s.hasCode(req.address, req.block) };
        case "triggersIn":
          return { ok: true, value: await s.triggersIn(req.block, req.dataSources) };
        case "file":
          return { ok: true, value: s.readFile ? await s.readFile(req.path) : null };
        case "fork":
          return { ok: true, value: s.forkFetch ? await s.forkFetch(req.entityType, req.id) : null };
        default:
          return { ok: false, message: `unknown request ${(req as { type: string }).type}` };
      }
    } catch (err) {
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
  }

  // A sign that the thread is not stuck in a handler (a run sent, a request, an answer, a log) since
  // the guard's last look.
  let signSeen = true;
  // Requests being answered, with when they arrived (for describe()).
  const answering = new Map<SyncRequest, number>();
  port1.on("message", (req: SyncRequest) => {
    answering.set(req, Date.now());
    signSeen = true;
    void answer(req).then((res) => {
      answering.delete(req);
      signSeen = true;
      port1.postMessage(res);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
  });

  let nextId = 1;
  const waiting = new Map<number, { resolve(r: { results: BlockResult[]; failure: HandlerFailure | null }): void; reject(e: Error): void; blocks?: BlockJob[] }>();
  let dead: Error | null = null;
  // Set by interrupt(): the thread was ended on purpose and must not be reset or restarted.
  let interrupted = false;
  let readyResolve: () => void = () => {};
  let readyReject: (e: Error) => void = () => {};
  const ready = new Promise<void>((res, rej) => ((readyResolve = res), (readyReject = rej)));

  function die(err: Error): void {
    dead ??= err;
    readyReject(err);
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  }

  /** Ends the thread and answers each run in flight with `failure` (a deterministic end of the deployment). */
  function failRuns(reason: IndexerError, failure: (blocks: BlockJob[]) => HandlerFailure): void {
    dead ??= reason;
    for (const [id, w] of waiting) if (w.blocks?.length) (waiting.delete(id), w.resolve({ results: [], failure: failure(w.blocks) }));
    die(reason);
    port1.close();
    void worker.terminate();
  }

  // A handler in an endless loop never yields: only the main thread can see it, and only ending the
  // thread stops it.
  // Silence is summed tick by tick, each tick counting at most two ticks' time: a main thread that was
  // itself blocked (a long synchronous commit) cannot make a healthy run look stuck.
  const limits = thread.limits;
  let silentMs = 0;
  let lastTick = Date.now();
  const guard = setInterval(() => {
    const now = Date.now();
    const step = Math.min(now - lastTick, 2 * GUARD_TICK_MS);
    lastTick = now;
    if (signSeen || dead || answering.size > 0 || ![...waiting.values()].some((w) => w.blocks)) {
      signSeen = false;
      silentMs = 0;
      return;
    }
    silentMs += step;
    if (silentMs < limits.handlerTimeoutMs) return;
    const seconds = limits.handlerTimeoutMs / 1000;
    failRuns(new IndexerError(`host worker ended: a handler ran past the timeout of ${seconds} s`), (blocks) => runawayFailure(blocks, seconds));
  }, Math.min(GUARD_TICK_MS, limits.handlerTimeoutMs));
  guard.unref();

  worker.on("message", (msg: WorkerReply) => {
    signSeen = true;
    if (msg.type === "ready") readyResolve();
    else if (msg.type === "log") {
      if (!msg.mapping) options.log(msg.level, msg.message);
      else if (options.mappingLog) options.mappingLog(msg.level, msg.message, msg.mapping);
      else options.log(msg.level, `[${msg.mapping.dataSource}] ${msg.message}`);
    }
    else if (msg.type === "fatal") die(new IndexerError(`mapping could not start: ${msg.message}`));
    else if (msg.type === "done") {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.profile) options.onProfile?.(msg.profile);
      w?.resolve({ results: msg.results, failure: msg.failure });
    }
  });
  worker.on("error", (err) => {
    // The heap limit ends the thread; what the handlers allocated did it, so the run fails for good.
    if ((err as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY") {
      const reason = new IndexerError(`host worker ran out of memory: its heap limit is ${limits.maxHeapMb} MB`, { cause: err });
      failRuns(reason, (blocks) => ({ message: `${reason.message} while running the handlers of ${blockSpan(blocks)}`, deterministic: true, handler: soleHandler(blocks), block: blocks[0]!.ptr }));
      return;
    }
    die(new IndexerError(`host worker crashed: ${err.message}`, { cause: err }));
  });
  worker.on("exit", (code) => {
    clearInterval(guard);
    die(new IndexerError(`host worker exited (${code})`));
  });

  function send(cmd: { type: "run"; blocks: BlockJob[] } | { type: "reset"; dataSources: number; waitingFiles?: number[] }): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    signSeen = true;
    return new Promise((resolve, reject) => {
      if (cmd.type === "reset") {
        waiting.set(id, { resolve, reject });
        return worker.postMessage({ ...cmd, id } satisfies WorkerCommand);
      }
      // Packed before it counts as in flight: a run that cannot be packed rejects here, and the guard never
      // takes it for a handler that went silent.
      const run = packRun(cmd.blocks);
      waiting.set(id, { resolve, reject, blocks: cmd.blocks });
      worker.postMessage({ type: "run", id, run } satisfies WorkerCommand, [run.bytes.buffer]);
    });
  }

  try {
    await thread.loaded;
    // A thread that ended after loading has no exit left to report (it came before the listener above).
    if (worker.threadId === -1) throw new IndexerError("host worker exited after loading, before it was given a deployment");
    worker.postMessage({ type: "init", ...init } satisfies WorkerCommand, [port2]);
    await ready;
  } catch (err) {
    clearInterval(guard);
    await worker.terminate();
    port1.close();
    throw err;
  }

  return {
    run: (blocks) => send({ type: "run", blocks }),
    async reset(dataSources, waitingFiles) {
      if (interrupted) return;
      await send({ type: "reset", dataSources, ...(waitingFiles ? { waitingFiles } : {}) });
    },
    get busy() {
      return [...waiting.values()].some((w) => w.blocks);
    },
    async interrupt(reason) {
      if (interrupted) return;
      interrupted = true;
      clearInterval(guard);
      die(new IndexerError(reason));
      port1.close();
      await worker.terminate();
    },
    describe() {
      const now = Date.now();
      const requests = [...answering].map(([req, at]) => `${req.type} (${now - at} ms)`);
      return `${waiting.size} run(s) in flight, ${requests.length ? `answering ${requests.join(", ")}` : "no store request pending"}${dead ? `, dead: ${dead.message}` : ""}`;
    },
    async terminate() {
      clearInterval(guard);
      dead ??= new IndexerError("host worker terminated");
      port1.close();
      await worker.terminate();
    },
  };
}

/** "block 7" or "blocks 7-12". */
function blockSpan(blocks: BlockJob[]): string {
  const first = blocks[0]!.ptr.number;
  const last = blocks[blocks.length - 1]!.ptr.number;
  return first === last ? `block ${first}` : `blocks ${first}-${last}`;
}

/** The one handler a run's triggers call, or null when they call several. */
function soleHandler(blocks: BlockJob[]): string | null {
  const handlers = new Set(blocks.flatMap((b) => b.triggers.map((t) => t.handler)));
  return handlers.size === 1 ? [...handlers][0]! : null;
}

/**
 * A run stopped at the handler timeout. With graph-node's text when one handler is known ("Handler 'H'
 * hit the timeout of 'N' seconds"); the host cannot see which block of a run was running, so the run's
 * first block is the failed one (the blocks before it were committed with earlier runs).
 */
function runawayFailure(blocks: BlockJob[], seconds: number): HandlerFailure {
  const handler = soleHandler(blocks);
  const handlers = [...new Set(blocks.flatMap((b) => b.triggers.map((t) => t.handler)))];
  const who = handler ? `Handler '${handler}'` : `One of the handlers ${handlers.map((h) => `'${h}'`).join(", ")}`;
  const where = blocks.length > 1 ? ` while running ${blockSpan(blocks)}` : "";
  return {
    message: `${who} hit the timeout of '${seconds}' seconds${where} (GRAPH_MAPPING_HANDLER_TIMEOUT; it computed that long without returning or calling the host)`,
    deterministic: true,
    handler,
    block: blocks[0]!.ptr,
  };
}
