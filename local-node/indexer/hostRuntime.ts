// Runs the mapping handlers of one deployment, block after block, over a layered entity cache:
// the current block's writes, then the batch's committed-to-be writes, then clean entities read
// before; misses go to `request` (the main thread's store). Thread-agnostic: the worker entry wires
// `request` to Atomics.wait, tests can call it directly.
import { instantiateSubgraph, type BlockPtr, type EntityChange, type EntityData, type EntityStoreBackend, type EthereumValue, type LogLevel, type SubgraphInstance } from "../../wasm-host/index.js";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import type { BlockJob, BlockResult, HandlerFailure, SyncRequest, SyncResponse, WorkerDataSource } from "./hostProtocol.js";
import { IndexerError } from "./errors.js";

export interface HostRuntimeOptions {
  schemaSdl: string;
  dataSources: WorkerDataSource[];
  cacheSize?: number;
  /** Replace an instance whose linear memory grew past this (default 128 MiB). */
  memoryLimitBytes?: number;
  /** Synchronous round trip to the owner of the store and the RPC client. */
  request(req: SyncRequest): SyncResponse;
  log(level: LogLevel, message: string): void;
}

export interface HostRuntime {
  runBlocks(blocks: BlockJob[]): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }>;
  /** Drops every cached entity. */
  reset(): void;
}

/** An entity as the cache knows it: present (with the block it was written in) or known absent. */
type Cached = { data: EntityData; block?: number } | null;

/** Raised when the main thread could not answer; never deterministic. */
class RequestFailedError extends IndexerError {
  override name = "RequestFailedError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, deterministic: false });
  }
}

const key = (entityType: string, id: string): string => `${entityType}\u0000${id}`;

export async function createHostRuntime(options: HostRuntimeOptions): Promise<HostRuntime> {
  const schema = parseSubgraphSchema(options.schemaSdl);
  const cacheSize = options.cacheSize ?? 100_000;
  let clean = new Map<string, Cached>();
  let pending = new Map<string, Cached>();
  let currentBlock: BlockPtr | null = null;

  function ask(req: SyncRequest): SyncResponse & { ok: true } {
    const res = options.request(req);
    if (!res.ok) throw new RequestFailedError(res.message);
    return res;
  }

  function remember(k: string, v: Cached): void {
    if (clean.size >= cacheSize) clean = new Map();
    clean.set(k, v);
  }

  // Ids that may exist in the store: all stored ids of a type (loaded on its first miss) plus every
  // id written by this worker, before or after that load. A read of any other id is answered
  // "absent" without asking the main thread.
  let knownIds = new Map<string, { loaded: boolean; ids: Set<string> }>();
  function mayExist(entityType: string, id: string): boolean {
    let known = knownIds.get(entityType);
    if (!known?.loaded) {
      const ids = known?.ids ?? new Set<string>();
      for (const stored of ask({ type: "ids", entityType }).value as string[]) ids.add(stored);
      known = { loaded: true, ids };
      knownIds.set(entityType, known);
    }
    return known.ids.has(id);
  }
  function noteWritten(entityType: string, id: string): void {
    let known = knownIds.get(entityType);
    if (!known) knownIds.set(entityType, (known = { loaded: false, ids: new Set() }));
    known.ids.add(id);
  }

  const backend: EntityStoreBackend = {
    get(entityType, id) {
      const k = key(entityType, id);
      const p = pending.get(k);
      if (p !== undefined) return p;
      const c = clean.get(k);
      if (c !== undefined) return c;
      if (!mayExist(entityType, id)) return null;
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
      for (const [k, v] of pending) {
        if (!k.startsWith(prefix)) continue;
        const eid = k.slice(prefix.length);
        if (v === null) byId.delete(eid);
        else if (refersTo(v.data.get(field), id)) byId.set(eid, v.data);
        else byId.delete(eid);
      }
      return [...byId.values()];
    },
  };

  // AssemblyScript's stub runtime never frees memory, so one long-lived instance only grows (graph-node
  // instantiates per trigger). Instances are replaced at a block boundary once they pass this size.
  const memoryLimit = options.memoryLimitBytes ?? 128 * 2 ** 20;
  const instantiate = (ds: WorkerDataSource): Promise<SubgraphInstance> =>
    instantiateSubgraph(ds.wasmModule, {
      apiVersion: ds.apiVersion,
      schema,
      store: backend,
      dataSource: {
        name: ds.name,
        address: ds.address,
        network: ds.network,
        context: ds.context ?? null,
        ...(ds.templates ? { templates: ds.templates } : {}),
        // Dynamic data sources are not indexed by this node; say so where it happens.
        onCreate: (name, params) =>
          options.log(
            "warning",
            `[${ds.name}] data source template ${name}(${params.join(", ")}) created at block ${currentBlock?.number ?? "?"} is not indexed by this node`,
          ),
      },
      ethereumCall: (call) => ask({ type: "call", call }).value as EthereumValue[] | null,
      ethereumGetBalance: (address) => ask({ type: "balance", address, block: currentBlock }).value as bigint,
      ethereumHasCode: (address) => ask({ type: "hasCode", address, block: currentBlock }).value as boolean,
      log: (level, message) => options.log(level, `[${ds.name}] ${message}`),
    });
  const instances: SubgraphInstance[] = [];
  for (const ds of options.dataSources) instances.push(await instantiate(ds));
  const shared = instances.length > 1;

  async function recycleGrown(): Promise<void> {
    for (let i = 0; i < instances.length; i++) {
      const memory = instances[i]!.context.exports.memory;
      if (memory instanceof WebAssembly.Memory && memory.buffer.byteLength > memoryLimit) instances[i] = await instantiate(options.dataSources[i]!);
    }
  }

  /** Folds one instance's changes into the block's de-duplicated list (last write wins, first order kept). */
  function collect(into: Map<string, EntityChange>, changes: EntityChange[], block: number): void {
    for (const ch of changes) {
      const k = key(ch.entityType, ch.id);
      into.delete(k);
      into.set(k, ch);
      noteWritten(ch.entityType, ch.id);
      // With several instances, later triggers of this block must read earlier instances' writes.
      if (shared) pending.set(k, ch.op === "set" ? { data: ch.data, block } : null);
    }
  }

  async function runOnce(blocks: BlockJob[]): Promise<{ results: BlockResult[]; failure: HandlerFailure | null }> {
    pending = new Map();
    const results: BlockResult[] = [];
    for (const job of blocks) {
      currentBlock = job.ptr;
      const changes = new Map<string, EntityChange>();
      const before = shared ? new Map(pending) : null;
      let trigger: { handler: string } | null = null;
      try {
        for (const inst of instances) inst.beginBlock(job.ptr);
        for (const t of job.triggers) {
          trigger = t;
          const inst = instances[t.dataSource];
          if (!inst) throw new Error(`no data source ${t.dataSource}`);
          inst.runEventHandler(t.handler, t.event);
          if (shared) collect(changes, inst.takeChanges(), job.ptr.number);
        }
        if (!shared) for (const inst of instances) collect(changes, inst.takeChanges(), job.ptr.number);
      } catch (err) {
        // The failed block's writes never reach the store; drop them from the instances and cache.
        for (const inst of instances) inst.takeChanges();
        if (before) pending = before;
        const e = err as { message?: string; deterministic?: boolean; handler?: string };
        return {
          results,
          failure: {
            message: e.message ?? String(err),
            deterministic: e.deterministic === true,
            handler: e.handler ?? trigger?.handler ?? null,
            block: job.ptr,
          },
        };
      }
      const list = [...changes.values()];
      if (!shared) for (const ch of list) pending.set(key(ch.entityType, ch.id), ch.op === "set" ? { data: ch.data, block: job.ptr.number } : null);
      results.push({ ptr: job.ptr, changes: list });
      await recycleGrown();
    }
    return { results, failure: null };
  }

  return {
    async runBlocks(blocks) {
      // The previous batch is committed by now: its writes become clean cache entries.
      for (const [k, v] of pending) remember(k, v);
      return runOnce(blocks);
    },
    reset() {
      clean = new Map();
      pending = new Map();
      knownIds = new Map();
    },
  };
}

function refersTo(v: EntityData extends Map<string, infer V> ? V | undefined : never, id: string): boolean {
  if (!v || v.kind === "Null") return false;
  if (v.kind === "Array") return v.value.some((x) => refersTo(x, id));
  if (v.kind === "Bytes") return `0x${Buffer.from(v.value).toString("hex")}` === id.toLowerCase();
  return "value" in v && String(v.value) === id;
}
