// Runs the mapping handlers of one deployment, block after block, over a layered entity cache:
// one host store for the block across all data sources (graph-node's per-block entity cache), then
// the writes of the last runs (maybe not committed yet), then clean entities read before; misses go
// to `request` (the main thread's store). Handlers that create data sources extend the registry;
// their triggers in the creating block run after the block's own, breadth first, as graph-node runs
// them. File data sources run after all of that, in a store of their own (graph-node's causality
// region isolation): they read nothing but their own writes, and the chain's handlers never see what
// they write. Thread-agnostic: the worker entry wires `request` to Atomics.wait, tests can call it
// directly.
import {
  createHostStore,
  entityDataEqual,
  instantiateSubgraph,
  type BlockPtr,
  type EntityChange,
  type EntityData,
  type EntityStoreBackend,
  type EthereumValue,
  type LogLevel,
  type SubgraphInstance,
} from "../../wasm-host/index.js";
import { collectGarbage } from "../../lib/collectGarbage.js";
import { createHeapCeiling } from "../../lib/heapCeiling.js";
import { createIdleHeapTrim, IDLE_TRIM_QUIET_MS } from "../../lib/idleHeapTrim.js";
import { IdFilter } from "./idFilter.js";
import { JournalRecorder, type PoiVersion } from "../poi/index.js";
import type { CopiedRows, CopyPlan, PoiJournalEntry } from "../store/index.js";
// The row format alone, not the store: its front door would load PGlite into the handlers' thread.
import { copyLine } from "../store/rowText.js";
// The subgraph-schema part, not the store's front door: the store would load PGlite into the handlers' thread.
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import type { BlockResult, CreatedDataSource, HandlerFailure, MappingLogOrigin, NonFatalError, RegionEntityChange, RunBlock, SyncRequest, SyncResponse, Trigger, WorkerDataSource, WorkerTemplate } from "./hostProtocol.js";
import { createDataSourceRegistry, restoreCreated, type RuntimeDataSource } from "./dataSourceRegistry.js";
import { IndexerError } from "./errors.js";
import { withDebugFork } from "./forkedStore.js";
import { wasmFramesOf } from "../../lib/wasmStack.js";
import { NO_PROFILE, createProfileRecorder, withStoreCounts, type ProfileDelta } from "./handlerProfile.js";

export interface HostRuntimeOptions {
  schemaSdl: string;
  /** Static data sources, then those created before this runtime started (`created` says which). */
  dataSources: WorkerDataSource[];
  templates?: WorkerTemplate[];
  /** Data sources created earlier, in creation order (appended after `dataSources`). */
  created?: CreatedDataSource[];
  cacheSize?: number;
  /** Replace an instance whose linear memory grew past this (default 32 MiB). */
  memoryLimitBytes?: number;
  /** The manifest declares `nonFatalErrors`: a handler's deterministic error skips it instead of failing. */
  nonFatalErrors?: boolean;
  /** The cap the mappings' memory was compiled with (capMappingMemory), named in the errors it causes. */
  maxMemoryMb?: number;
  /** Record graph-node's proof-of-indexing events: the hasher, and the causality region of the chain's triggers. */
  poi?: { version: PoiVersion; region: string };
  /** Write immutable entities' rows as COPY lines for these tables (the store's plan) instead of sending them as changes. */
  copyPlan?: CopyPlan;
  /** The deployment has a debug fork: the chain's handlers' store reads that miss ask for `fork` (forkedStore.ts). */
  debugFork?: boolean;
  /** false: keep no handler profile (handlerProfile.ts), only to measure what it costs; default true. */
  profile?: boolean;
  /** Synchronous round trip to the owner of the store and the RPC client. */
  request(req: SyncRequest): SyncResponse;
  /** The host's own lines; a mapping's `log.*` calls come with `mapping`. */
  log(level: LogLevel, message: string, mapping?: MappingLogOrigin): void;
}

export interface HostRuntime {
  /** Runs the blocks in order; stops after a failed block, or after one whose handlers created data sources. */
  runBlocks(blocks: RunBlock[]): Promise<{ results: BlockResult[]; failure: HandlerFailure | null; profile: ProfileDelta | null }>;
  /**
   * Drops every cached entity and every data source past the first `dataSources`; file data sources
   * listed in `waitingFiles` (indexes) wait for their file again, the others count as processed.
   */
  reset(dataSources?: number, waitingFiles?: number[]): void;
}

/** An entity as the cache knows it: present (with the block it was written in) or known absent. */
type Cached = { data: EntityData; block?: number } | null;

/** Ends a block whose handler failed deterministically once all its triggers ran (see `run`). */
class FatalBlockError extends Error {
  constructor(
    readonly err: unknown,
    readonly trigger: Trigger,
  ) {
    super("a handler failed deterministically");
  }
}

/** Raised when the main thread could not answer; never deterministic. */
class RequestFailedError extends IndexerError {
  override name = "RequestFailedError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, deterministic: false });
  }
}

const key = (entityType: string, id: string): string => `${entityType}\u0000${id}`;
const typeOfKey = (k: string): string => k.slice(0, k.indexOf("\u0000"));
const apiPatch = (v: string): number => Number(/^0\.0\.(\d+)$/.exec(v)?.[1] ?? 0);

/**
 * Committed entities kept in the worker (graph-node keeps about 10 MB by default): 100,000 entities
 * held about 100 MB of the thread's heap, for write-once entities that are never read again.
 */
export const DEFAULT_ENTITY_CACHE_SIZE = 10_000;

/**
 * A mapping instance is started afresh at a block boundary once it holds this much memory (its runtime
 * never frees). The worker's modules take their memory from the host (reusableMemory.ts), so a restart
 * zeroes and keeps it: about a millisecond, and nothing left for a collection. What an instance wrote stays
 * resident until the node stops, so the limit is that much of the node's memory: at 4 MiB instead of 16,
 * 100,000 approvals peaked about 12 MiB lower at the same rate, with about four times the restarts
 * (docs/benchmarks.md, 2026-11-29).
 */
export const DEFAULT_INSTANCE_MEMORY_LIMIT = 4 * 2 ** 20;

/**
 * Runs whose writes may not be in the store yet when the next run starts: the job runner (jobRunner.ts)
 * starts run k+2 when run k answers (k+1 queued in between), while the commits of runs k-1 and k may
 * still be under way and k+1's has not begun.
 */
export const UNCONFIRMED_RUNS = 3;

/**
 * The handlers' thread's heap past which it collects at a block boundary (lib/heapCeiling.ts): the
 * entities it writes live for a few runs and then are garbage that V8 would keep for long. This thread
 * bounds the catch-up's rate, and at 32 MiB (slack 12) its forced collections cost a quarter of it: on
 * 100,000 Uniswap v3 swaps, 11,200 events/s with a peak of 351-385 MiB; at 96 MiB (slack 48) 14,900 with
 * 395-443; with no ceiling 16,000 with 415-456, too near Subsquid's 472 (docs/benchmarks.md, 2026-12-02).
 */
const keepHeapDown = createHeapCeiling({ floorMiB: 96, growth: 1.5, minSlackMiB: 48 });
/** Its heap's emptied pages go back two seconds after its last run (lib/idleHeapTrim.ts). */
const idleTrim = createIdleHeapTrim({ quietMs: IDLE_TRIM_QUIET_MS, aboveMiB: 48 });

export async function createHostRuntime(options: HostRuntimeOptions): Promise<HostRuntime> {
  const schema = parseSubgraphSchema(options.schemaSdl);
  const cacheSize = options.cacheSize ?? DEFAULT_ENTITY_CACHE_SIZE;
  let clean = new Map<string, Cached>();
  let older = new Map<string, Cached>();
  let pending = new Map<string, Cached>();
  // The writes of the last UNCONFIRMED_RUNS runs, oldest first: the job runner starts a run while
  // those before it may still be committing, so a read must find them here, never in the store (and
  // the LRU cache may already have dropped them).
  let unconfirmed: Map<string, Cached>[] = [];
  let currentBlock: BlockPtr | null = null;
  // What each handler cost in this run (handlerProfile.ts): taken with the run's answer.
  const profiled = options.profile !== false;
  const profile = profiled ? createProfileRecorder() : NO_PROFILE;

  function ask(req: SyncRequest): SyncResponse & { ok: true } {
    const res = options.request(req);
    if (!res.ok) throw new RequestFailedError(res.message);
    return res;
  }

  // Two generations of half the size each: an entry read or written goes into the young one, and a full
  // young generation becomes the old one, dropping the old. A subgraph's hot entities stay (a hit in
  // the old generation moves up) while the flood of entities written once passes through. (Deleting a
  // Map's oldest entry one at a time, as an exact LRU would, costs V8 a scan over the deleted slots
  // before it: about 4 µs an entity at 100,000 approvals.)
  function remember(k: string, v: Cached): void {
    clean.set(k, v);
    if (clean.size >= Math.max(1, cacheSize >> 1)) (older = clean), (clean = new Map());
  }

  // A committed run's writes become clean entries, but not those of immutable types: an entity written
  // once is rarely read again, and 10,000 of them held the thread's live heap up between collections. A
  // later read of one finds it in the store (its id is in the filter below).
  function confirm(writes: Map<string, Cached>): void {
    for (const [k, v] of writes) if (!schema.entities.get(typeOfKey(k))?.immutable) remember(k, v);
  }

  // Ids that may exist in the store: all stored ids of a type (loaded on its first miss) plus every
  // id written by this worker, before or after that load. A read of any other id is answered
  // "absent" without asking the main thread.
  let knownIds = new Map<string, { loaded: boolean; ids: IdFilter }>();
  function mayExist(entityType: string, id: string): boolean {
    let known = knownIds.get(entityType);
    if (!known?.loaded) {
      const ids = known?.ids ?? new IdFilter();
      for (const stored of ask({ type: "ids", entityType }).value as string[]) ids.add(stored);
      known = { loaded: true, ids };
      knownIds.set(entityType, known);
    }
    return known.ids.mayHave(id);
  }
  function noteWritten(entityType: string, id: string): void {
    let known = knownIds.get(entityType);
    if (!known) knownIds.set(entityType, (known = { loaded: false, ids: new IdFilter() }));
    known.ids.add(id);
  }

  const backend: EntityStoreBackend = {
    get(entityType, id) {
      // Every id in the maps below passed the filter (written here, or found in the store), so a new
      // id (each immutable entity's existence check) is answered before a key is built or looked up.
      if (!mayExist(entityType, id)) return null;
      const k = key(entityType, id);
      const p = pending.get(k);
      if (p !== undefined) return p;
      for (let i = unconfirmed.length - 1; i >= 0; i--) {
        const u = unconfirmed[i]!.get(k);
        if (u !== undefined) return u;
      }
      const c = clean.get(k);
      if (c !== undefined) return c;
      const o = older.get(k);
      if (o !== undefined) {
        remember(k, o);
        return o;
      }
      const data = ask({ type: "get", entityType, id }).value as EntityData | null;
      const v: Cached = data ? { data } : null;
      remember(k, v);
      return v;
    },
    getDerived(entityType, field, id) {
      // Derived reads cannot be answered from the cache alone; merge the store's answer with pending writes.
      const stored = ask({ type: "getDerived", entityType, field, id }).value as EntityData[];
      const byId = new Map<string, EntityData>();
      for (const e of stored) {
        const eid = e.get("id");
        if (eid && "value" in eid) byId.set(String(eid.value), e);
      }
      const prefix = `${entityType}\u0000`;
      for (const writes of [...unconfirmed, pending]) {
        for (const [k, v] of writes) {
          if (!k.startsWith(prefix)) continue;
          const eid = k.slice(prefix.length);
          if (v === null) byId.delete(eid);
          else if (refersTo(v.data.get(field), id)) byId.set(eid, v.data);
          else byId.delete(eid);
        }
      }
      return [...byId.values()];
    },
  };

  // One cache for the block, whichever data source writes (graph-node's BlockState).
  const firstApi = options.dataSources[0]?.apiVersion ?? options.templates?.[0]?.apiVersion ?? "0.0.7";
  const storeOptions = { rejectUndefinedFields: apiPatch(firstApi) >= 8 };
  // The block's proof-of-indexing events: the chain's handlers' writes only (graph-node leaves files out).
  // They are recorded here and go with the block's result as a journal entry, hashed later (local-node/proofs).
  const poiSettings = options.poi ?? null;
  // One recorder, begun again at each block; null without a proof of indexing. A block none of whose
  // regions had a trigger leaves the proof as it was: no entry.
  const journal = poiSettings ? new JournalRecorder(poiSettings.version) : null;
  const poiRegion = poiSettings?.region ?? "";
  const blockStore = createHostStore(schema, backend, {
    ...storeOptions,
    ...(poiSettings
      ? {
          // Written as bytes at once: the store goes on to change the map it passed.
          observeWrite: (w: EntityChange) => journal?.write(poiRegion, w),
        }
      : {}),
  });

  /**
   * graph-node writes nothing for an entity the block left as it was (entity_cache.rs, as_modifications):
   * a mutable entity set back to its stored value, or one removed and saved again with the same fields,
   * gets no new version, so `_change_block` and time travel see no change; removing what never existed
   * writes nothing either. The backend still answers with the state before this block.
   */
  function withoutNoOps(changes: EntityChange[]): EntityChange[] {
    return changes.filter((change) => {
      if (schema.entities.get(change.entityType)?.immutable) return true;
      const before = backend.get(change.entityType, change.id);
      if (change.op === "remove") return before !== null;
      return before === null || !entityDataEqual(before.data, change.data);
    });
  }
  const registry = createDataSourceRegistry(
    options.dataSources,
    options.templates ?? [],
    (name, params, context) => registry.queue(name, params, context),
    (message) => options.log("warning", message),
  );
  restoreCreated(registry, options.created ?? []);
  // File data sources whose file was not in the node's IPFS yet; looked for again at each batch's end.
  const waitingFiles = new Set<number>();
  registry.list.forEach((ds, i) => ds.file && !ds.file.done && waitingFiles.add(i));
  let currentName = "";

  // AssemblyScript's stub runtime never frees memory, so one long-lived instance only grows (graph-node
  // instantiates per trigger). Instances are started afresh at a block boundary once they pass this size.
  // One instance per mapping module serves every data source that runs it (a template's many).
  const memoryLimit = options.memoryLimitBytes ?? DEFAULT_INSTANCE_MEMORY_LIMIT;
  const instances = new Map<WebAssembly.Module, SubgraphInstance>();
  // A debug fork answers the chain's handlers' misses; file data sources keep to their own writes.
  const forkedStore = options.debugFork ? withDebugFork(blockStore, (entityType, id) => ask({ type: "fork", entityType, id }).value as EntityData | null) : blockStore;
  const mappingStore = profiled ? withStoreCounts(forkedStore, profile) : forkedStore;
  const instantiate = (ds: RuntimeDataSource, entityCache = mappingStore): Promise<SubgraphInstance> =>
    instantiateSubgraph(ds.wasmModule, {
      apiVersion: ds.apiVersion,
      schema,
      store: backend,
      entityCache,
      dataSource: ds.info,
      ethereumCall: (call) => {
        const started = performance.now();
        const answer = ask({ type: "call", call });
        profile.ethCall(call.contractName, call.functionName, performance.now() - started, answer.cached === true);
        return answer.value as EthereumValue[] | null;
      },
      ethereumGetBalance: (address) => ask({ type: "balance", address, block: currentBlock }).value as bigint,
      ethereumHasCode: (address) => ask({ type: "hasCode", address, block: currentBlock }).value as boolean,
      log: (level, message) => options.log(level, message, { dataSource: currentName, block: currentBlock ? { number: currentBlock.number, hash: currentBlock.hash } : null }),
      // Restarted at block boundaries by recycleGrown, never in the middle of a block's shared cache.
      recycleMemoryBytes: Infinity,
    });
  async function instanceFor(ds: RuntimeDataSource): Promise<SubgraphInstance> {
    let inst = instances.get(ds.wasmModule);
    if (!inst) instances.set(ds.wasmModule, (inst = await instantiate(ds)));
    return inst;
  }
  for (const ds of registry.list) await instanceFor(ds);

  // File handlers run on instances of their own over a store that reads nothing (graph-node gives each
  // offchain trigger an empty store): reset before each file, so one file never sees another's writes.
  const fileStore = createHostStore(schema, { get: () => null, getDerived: () => [] }, storeOptions);
  const fileInstances = new Map<WebAssembly.Module, SubgraphInstance>();
  const countedFileStore = profiled ? withStoreCounts(fileStore, profile) : fileStore;

  function recycleGrown(): void {
    let dropped = false;
    for (const pool of [instances, fileInstances]) {
      for (const inst of pool.values()) if (inst.restartIfGrown(memoryLimit) && !inst.reusesMemory) dropped = true;
    }
    // A dropped memory is outside the heap, so V8 would keep several of them before it collects.
    if (dropped) collectGarbage();
    else keepHeapDown();
  }

  /** Runs a file data source's handler on its file; answers its writes, tagged with its causality region. */
  async function runFile(ds: RuntimeDataSource & { file: NonNullable<RuntimeDataSource["file"]> }, content: Uint8Array, ptr: BlockPtr): Promise<RegionEntityChange[]> {
    let inst = fileInstances.get(ds.wasmModule);
    if (!inst) fileInstances.set(ds.wasmModule, (inst = await instantiate(ds, countedFileStore)));
    fileStore.reset();
    inst.beginBlock(ptr);
    inst.setDataSource(ds.info);
    currentName = ds.info.name ?? "";
    profile.enter(currentName, ds.file.handler);
    try {
      inst.runFileHandler(ds.file.handler, content);
    } finally {
      profile.leave();
    }
    const region = ds.file.region;
    return inst.takeChanges().map((c) => ({ ...c, causalityRegion: region }));
  }

  /**
   * The files of `indexes` (data sources created in this block, then any still waiting), processed in
   * order; files their handlers name are processed after them. graph-node treats any failure here as
   * non-deterministic (a file is off-chain data), and refuses contract data sources created from a file.
   */
  async function processFiles(indexes: number[], ptr: BlockPtr, created: CreatedDataSource[], done: number[], changes: RegionEntityChange[]): Promise<void> {
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i]!;
      const ds = registry.list[index];
      if (!ds?.file || ds.file.done) continue;
      const content = ask({ type: "file", path: ds.info.address }).value as Uint8Array | null;
      if (content === null) {
        waitingFiles.add(index);
        continue;
      }
      try {
        changes.push(...(await runFile({ ...ds, file: ds.file }, content, ptr)));
      } catch (err) {
        const e = err as { message?: string; handler?: string };
        throw Object.assign(new IndexerError(e.message ?? String(err), { deterministic: false, cause: err }), { handler: e.handler ?? ds.file.handler });
      }
      ds.file.done = true;
      waitingFiles.delete(index);
      done.push(index);
      const fresh = registry.admit(ptr.number);
      if (fresh.some((c) => c.causalityRegion === undefined)) {
        throw Object.assign(new IndexerError("Attempted to create on-chain data source in offchain data source handler. This is not yet supported.", { deterministic: false }), { handler: ds.file.handler });
      }
      created.push(...fresh);
      indexes.push(...fresh.map((c) => c.index));
    }
  }

  /**
   * A handler's error, naming the memory cap when the handler trapped with its instance's memory past
   * half of it: AssemblyScript traps (`unreachable`) when `memory.grow` fails, and the stub runtime's
   * doubling falls back to the exact need, so memory ends between half the cap and the cap.
   */
  /** graph-node's context for a trigger's error: the block and transaction of a log or a call, nothing for a block. */
  function triggerContext(t: Trigger): string {
    const tx = t.kind === "event" ? t.event.transaction.hash : t.kind === "call" ? t.call.transaction.hash : null;
    if (tx === null || currentBlock === null) return "";
    const hex = typeof tx === "string" ? tx.replace(/^0x/i, "").toLowerCase() : Buffer.from(tx).toString("hex");
    return `block #${currentBlock.number} (${currentBlock.hash}), transaction ${hex}: `;
  }

  function failureMessage(err: unknown, t: Trigger | null): string {
    const e = err as { message?: string; code?: string; deterministic?: boolean };
    const message = e.message ?? String(err);
    // A handler's non-deterministic error (an eth_call graph-node cannot encode, an RPC failure) carries
    // graph-node's trigger context; a refused trigger has it already.
    if (e.deterministic !== true && t !== null && t.kind !== "refused") return `failed to process trigger: ${triggerContext(t)}${message}`;
    if (options.maxMemoryMb === undefined || t === null || t.kind === "refused" || e.code !== "TRAP" || e.deterministic !== true) return message;
    const ds = registry.list[t.dataSource];
    const memory = ds ? instances.get(ds.wasmModule)?.context.exports.memory : undefined;
    if (!(memory instanceof WebAssembly.Memory)) return message;
    const usedMb = memory.buffer.byteLength / 2 ** 20;
    if (usedMb < options.maxMemoryMb / 2 || usedMb > options.maxMemoryMb) return message;
    return `out of memory: the mapping's memory reached ${Math.round(usedMb)} MB of its ${options.maxMemoryMb} MB limit (LOCAL_NODE_MAPPING_MAX_MEMORY_MB); ${message}`;
  }

  async function runTrigger(t: Trigger): Promise<void> {
    const ds = registry.list[t.dataSource];
    if (!ds) throw new IndexerError(`no data source ${t.dataSource}`);
    const inst = instances.get(ds.wasmModule) ?? (await instanceFor(ds));
    inst.setDataSource(ds.info);
    currentName = ds.info.name ?? "";
    // graph-node refuses such a log while matching triggers, before any handler runs: a non-deterministic
    // error in its words, which it retries (it never gets further).
    if (t.kind === "refused") throw new IndexerError(`failed to process trigger: block #${currentBlock?.number ?? "?"} (${currentBlock?.hash ?? "?"}), transaction ${t.transactionHash.replace(/^0x/, "")}: ${t.message}`, { deterministic: false });
    profile.enter(currentName, t.handler);
    try {
      if (t.kind === "block") inst.runBlockHandler(t.handler, t.block);
      else if (t.kind === "call") inst.runCallHandler(t.handler, t.call);
      else if (t.kind === "entity") inst.runEntityHandler(t.handler, t.entity, t.timestamp);
      else inst.runEventHandler(t.handler, t.event);
    } finally {
      profile.leave();
    }
  }

  async function runOnce(blocks: RunBlock[]): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }> {
    pending = new Map();
    const results: BlockResult[] = [];
    for (const [at, job] of blocks.entries()) {
      currentBlock = job.ptr;
      const blockStarted = performance.now();
      let triggerCount = 0;
      const countBefore = registry.list.length;
      let trigger = null as Trigger | null;
      const created: CreatedDataSource[] = [];
      const done: number[] = [];
      const fileChanges: RegionEntityChange[] = [];
      const errors: NonFatalError[] = [];
      // With `nonFatalErrors`, a handler's deterministic error skips that handler (its writes are already
      // rolled back, its creations are dropped here) and the block goes on, as graph-node does.
      journal?.begin(job.ptr.number);
      // A handler's deterministic error without `nonFatalErrors`: graph-node still runs the block's other
      // triggers (their events are part of the proof of indexing), then keeps only the proof and fails.
      const fatal: { err: unknown; trigger: Trigger }[] = [];
      const run = async (t: Trigger): Promise<void> => {
        trigger = t;
        triggerCount++;
        const queued = registry.queuedCount;
        journal?.startHandler(poiRegion);
        try {
          await runTrigger(t);
        } catch (err) {
          const e = err as { message?: string; deterministic?: boolean; handler?: string };
          if (e.deterministic !== true || t.kind === "refused") throw err;
          registry.dropQueued(queued);
          // The handler's events stay in the proof; this one says how many no longer reached the store.
          journal?.writeDeterministicError(poiRegion);
          if (!options.nonFatalErrors) fatal.push({ err, trigger: t });
          else errors.push({ message: failureMessage(err, t), handler: e.handler ?? t.handler });
        }
      };
      try {
        blockStore.beginBlock(job.ptr);
        for (const t of job.triggers) await run(t);
        // Created data sources see this block's triggers too, after the block's own, breadth first.
        for (let fresh = registry.admit(job.ptr.number); fresh.length > 0; fresh = registry.admit(job.ptr.number)) {
          created.push(...fresh);
          const contracts = fresh.filter((c) => c.causalityRegion === undefined);
          const more = contracts.length === 0 ? [] : (ask({ type: "triggersIn", block: job.ptr, dataSources: contracts }).value as Trigger[]);
          for (const t of more) await run(t);
        }
        // The first error is the one reported, as graph-node reports it.
        if (fatal[0]) throw new FatalBlockError(fatal[0].err, fatal[0].trigger);
        // Files after the chain's triggers; those still waiting are looked for at the batch's last block.
        const files = created.filter((c) => c.causalityRegion !== undefined).map((c) => c.index);
        if (at === blocks.length - 1) files.push(...[...waitingFiles].filter((i) => !files.includes(i)));
        await processFiles(files, job.ptr, created, done, fileChanges);
      } catch (err) {
        // Named before the block's created data sources are dropped: one of them may be the one that failed.
        const failedTrigger = err instanceof FatalBlockError ? err.trigger : trigger;
        const failedIn = failedTrigger ? (registry.list[failedTrigger.dataSource]?.info.name ?? null) : null;
        // The failed block's writes and data sources never reach the store; its files wait again.
        blockStore.takeChanges();
        for (const index of done) {
          const file = registry.list[index]?.file;
          if (file && index < countBefore) (file.done = false), waitingFiles.add(index);
        }
        registry.truncate(countBefore);
        for (const index of waitingFiles) if (index >= countBefore) waitingFiles.delete(index);
        // The proof of a block failed by a handler's deterministic error is still kept, at that block.
        const proof: PoiJournalEntry | null = err instanceof FatalBlockError ? (journal?.finish() ?? null) : null;
        const cause = err instanceof FatalBlockError ? err.err : err;
        const e = cause as { message?: string; deterministic?: boolean; handler?: string };
        const frames = wasmFramesOf(cause);
        return {
          results,
          failure: {
            message: failureMessage(cause, failedTrigger),
            deterministic: e.deterministic === true,
            handler: e.handler ?? failedTrigger?.handler ?? null,
            block: job.ptr,
            ...(proof ? { poiJournal: proof } : {}),
            ...(frames.length > 0 ? { trap: { dataSource: failedIn, frames } } : {}),
          },
        };
      }
      const changes: EntityChange[] = withoutNoOps(blockStore.takeChanges());
      for (const ch of changes) {
        noteWritten(ch.entityType, ch.id);
        pending.set(key(ch.entityType, ch.id), ch.op === "set" ? { data: ch.data, block: job.ptr.number } : null);
      }
      const all: RegionEntityChange[] = fileChanges.length > 0 ? [...changes, ...fileChanges] : changes;
      const { rest, copied } = options.copyPlan ? asCopyLines(options.copyPlan, all, job.ptr.number) : { rest: all, copied: [] };
      const result: BlockResult = {
        ptr: job.ptr,
        changes: rest,
        ...(copied.length > 0 ? { copied } : {}),
        ...(created.length > 0 ? { created } : {}),
        ...(done.length > 0 ? { done } : {}),
        ...(errors.length > 0 ? { errors } : {}),
      };
      const entry = journal?.finish() ?? null;
      if (entry) result.poiJournal = entry;
      results.push(result);
      profile.block(performance.now() - blockStarted, triggerCount);
      recycleGrown();
      // Later blocks of this batch were loaded without the new contract data sources' triggers; and a
      // block with skipped handlers is committed alone (fail-fast looks at it before more run).
      if (created.some((c) => c.causalityRegion === undefined) || errors.length > 0) break;
    }
    return { results, failure: null };
  }

  return {
    async runBlocks(blocks) {
      // The run before the last UNCONFIRMED_RUNS is committed by now: its writes become clean cache entries.
      unconfirmed.push(pending);
      if (unconfirmed.length > UNCONFIRMED_RUNS) confirm(unconfirmed.shift()!);
      try {
        return { ...(await runOnce(blocks)), profile: profile.take() };
      } finally {
        idleTrim.busy();
      }
    },
    reset(dataSources, waiting) {
      // Also forgets the writes skipDuplicates dropped, as graph-node starts a new entity cache.
      blockStore.reset();
      clean = new Map();
      older = new Map();
      pending = new Map();
      unconfirmed = [];
      knownIds = new Map();
      if (dataSources !== undefined) registry.truncate(dataSources);
      if (waiting !== undefined) {
        waitingFiles.clear();
        registry.list.forEach((ds, i) => {
          if (!ds.file) return;
          ds.file.done = !waiting.includes(i);
          if (!ds.file.done) waitingFiles.add(i);
        });
      }
    },
  };
}

/** The sets of the plan's immutable types as COPY lines (by type, in write order), and the other changes. */
function asCopyLines(plan: CopyPlan, changes: RegionEntityChange[], block: number): { rest: RegionEntityChange[]; copied: CopiedRows[] } {
  const rest: RegionEntityChange[] = [];
  const byType = new Map<string, CopiedRows>();
  for (const change of changes) {
    // Own keys only: an entity type may be named like an Object.prototype member ("constructor").
    const table = Object.hasOwn(plan, change.entityType) ? plan[change.entityType] : undefined;
    if (table === undefined || change.op !== "set") {
      rest.push(change);
      continue;
    }
    let rows = byType.get(change.entityType);
    if (!rows) byType.set(change.entityType, (rows = { entityType: change.entityType, lines: "", rows: 0 }));
    rows.lines += copyLine(table, change.id, change.data, block, change.causalityRegion ?? 0);
    rows.rows++;
  }
  return { rest, copied: [...byType.values()] };
}

function refersTo(v: EntityData extends Map<string, infer V> ? V | undefined : never, id: string): boolean {
  if (!v || v.kind === "Null") return false;
  if (v.kind === "Array") return v.value.some((x) => refersTo(x, id));
  if (v.kind === "Bytes") return `0x${Buffer.from(v.value).toString("hex")}` === id.toLowerCase();
  return "value" in v && String(v.value) === id;
}
