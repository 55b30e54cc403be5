// The handler profile: what each handler (data source and handler name) cost, kept in the handlers'
// thread while it runs them and handed to the main thread with each run's answer, where it adds up per
// deployment. Always on, so each hook is a counter bump or a clock read: no strings built, no maps
// looked up per store call. The histograms use graph-node's buckets, so that /metrics can expose them
// under graph-node's names (local-node/metrics).
import { wrapHostStore, type HostStore } from "../../wasm-host/index.js";
import type { ProfileTableRow } from "../../lib/handlerProfileTable.js";

/** graph-node's `deployment_handler_execution_time` buckets (seconds). */
export const HANDLER_SECONDS_BUCKETS: readonly number[] = [0.1, 0.5, 1, 10, 100];
/** graph-node's `deployment_eth_call_execution_time` buckets (seconds). */
export const ETH_CALL_SECONDS_BUCKETS: readonly number[] = [0.1, 0.5, 1, 10, 100];
/** graph-node's `deployment_block_processing_duration` buckets (seconds). */
export const BLOCK_SECONDS_BUCKETS: readonly number[] = [0.05, 0.2, 0.7, 1.5, 4, 10, 60, 120, 240];
/** graph-node's `deployment_block_trigger_count` buckets (triggers). */
export const BLOCK_TRIGGER_BUCKETS: readonly number[] = [1, 5, 10, 20, 50];

/** A histogram as counts per bucket (not cumulative; the last slot is past the last bound), its sum and count. */
export interface BucketCounts {
  counts: number[];
  sum: number;
  count: number;
}

/** A handler's counters (the table's row, lib/handlerProfileTable.ts), and its time per call as a histogram. */
export interface HandlerProfileRow extends ProfileTableRow {
  /** Per call, in seconds, on HANDLER_SECONDS_BUCKETS. */
  seconds: BucketCounts;
}

/** eth_calls by contract and method, as graph-node labels `deployment_eth_call_execution_time`. */
export interface EthCallProfileRow {
  contract: string;
  method: string;
  seconds: BucketCounts;
}

/** What one run added (the worker's `take`), or a deployment's totals (HandlerProfile). */
export interface ProfileDelta {
  handlers: HandlerProfileRow[];
  ethCalls: EthCallProfileRow[];
  /** Per block run: its handlers' wall time (seconds) and its trigger count. */
  blockSeconds: BucketCounts;
  blockTriggers: BucketCounts;
}

export function emptyBuckets(bounds: readonly number[]): BucketCounts {
  return { counts: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 };
}

function observe(into: BucketCounts, bounds: readonly number[], value: number): void {
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  into.counts[i]!++;
  into.sum += value;
  into.count++;
}

function addBuckets(into: BucketCounts, from: BucketCounts): void {
  for (let i = 0; i < into.counts.length; i++) into.counts[i]! += from.counts[i] ?? 0;
  into.sum += from.sum;
  into.count += from.count;
}

function newRow(dataSource: string, handler: string): HandlerProfileRow {
  return { dataSource, handler, calls: 0, totalMs: 0, maxMs: 0, seconds: emptyBuckets(HANDLER_SECONDS_BUCKETS), storeGets: 0, storeSets: 0, storeRemoves: 0, ethCalls: 0, ethCallMs: 0, ethCallsCached: 0 };
}

/** The handlers' thread's side: one per host runtime. */
export interface ProfileRecorder {
  /** A handler starts; store and eth_call counts go to it until `leave`. */
  enter(dataSource: string, handler: string): void;
  leave(): void;
  storeGet(): void;
  storeSet(): void;
  storeRemove(): void;
  ethCall(contract: string, method: string, ms: number, cached: boolean): void;
  /** A block's handlers ran in `ms` (its own triggers and those of data sources it created). */
  block(ms: number, triggers: number): void;
  /** What was recorded since the last take; null when nothing was. */
  take(): ProfileDelta | null;
}

export function createProfileRecorder(now: () => number = () => performance.now()): ProfileRecorder {
  // Rows by data source, then handler: looked up once per trigger, kept across takes (zeroed by take).
  let rows = new Map<string, Map<string, HandlerProfileRow>>();
  let calls = new Map<string, EthCallProfileRow>();
  let blockSeconds = emptyBuckets(BLOCK_SECONDS_BUCKETS);
  let blockTriggers = emptyBuckets(BLOCK_TRIGGER_BUCKETS);
  let current: HandlerProfileRow | null = null;
  let started = 0;
  let touched = false;

  return {
    enter(dataSource, handler) {
      let byHandler = rows.get(dataSource);
      if (!byHandler) rows.set(dataSource, (byHandler = new Map()));
      let row = byHandler.get(handler);
      if (!row) byHandler.set(handler, (row = newRow(dataSource, handler)));
      current = row;
      touched = true;
      started = now();
    },
    leave() {
      const row = current;
      if (!row) return;
      current = null;
      const ms = now() - started;
      row.calls++;
      row.totalMs += ms;
      if (ms > row.maxMs) row.maxMs = ms;
      observe(row.seconds, HANDLER_SECONDS_BUCKETS, ms / 1000);
    },
    storeGet() {
      if (current) current.storeGets++;
    },
    storeSet() {
      if (current) current.storeSets++;
    },
    storeRemove() {
      if (current) current.storeRemoves++;
    },
    ethCall(contract, method, ms, cached) {
      if (current) {
        current.ethCalls++;
        current.ethCallMs += ms;
        if (cached) current.ethCallsCached++;
      }
      const key = `${contract}\u0000${method}`;
      let row = calls.get(key);
      if (!row) calls.set(key, (row = { contract, method, seconds: emptyBuckets(ETH_CALL_SECONDS_BUCKETS) }));
      observe(row.seconds, ETH_CALL_SECONDS_BUCKETS, ms / 1000);
      touched = true;
    },
    block(ms, triggers) {
      observe(blockSeconds, BLOCK_SECONDS_BUCKETS, ms / 1000);
      observe(blockTriggers, BLOCK_TRIGGER_BUCKETS, triggers);
      touched = true;
    },
    take() {
      if (!touched) return null;
      const delta: ProfileDelta = {
        handlers: [...rows.values()].flatMap((m) => [...m.values()]).filter((r) => r.calls > 0 || r.storeGets + r.storeSets + r.storeRemoves + r.ethCalls > 0),
        ethCalls: [...calls.values()],
        blockSeconds,
        blockTriggers,
      };
      // Fresh rows for the next run: the taken ones are posted to the main thread.
      rows = new Map();
      calls = new Map();
      blockSeconds = emptyBuckets(BLOCK_SECONDS_BUCKETS);
      blockTriggers = emptyBuckets(BLOCK_TRIGGER_BUCKETS);
      // A handler still running (take is called between runs, so none is) keeps its row.
      if (current) {
        const row: HandlerProfileRow = current;
        rows.set(row.dataSource, new Map([[row.handler, (current = newRow(row.dataSource, row.handler))]]));
      }
      touched = false;
      return delta;
    },
  };
}

/** A recorder that records nothing: the handlers' thread without a profile (to measure what it costs). */
export const NO_PROFILE: ProfileRecorder = {
  enter() {},
  leave() {},
  storeGet() {},
  storeSet() {},
  storeRemove() {},
  ethCall() {},
  block() {},
  take: () => null,
};

/** The mappings' store, counting their `get`, `set` and `remove` calls into the recorder. */
export function withStoreCounts(store: HostStore, profile: ProfileRecorder): HostStore {
  return wrapHostStore(store, {
    get: (entityType, id) => (profile.storeGet(), store.get(entityType, id)),
    getInBlock: (entityType, id) => (profile.storeGet(), store.getInBlock(entityType, id)),
    loadRelated: (entityType, id, field) => (profile.storeGet(), store.loadRelated(entityType, id, field)),
    set: (entityType, id, data) => (profile.storeSet(), store.set(entityType, id, data)),
    remove: (entityType, id) => (profile.storeRemove(), store.remove(entityType, id)),
  });
}

/** A deployment's profile on the main thread: the runs' deltas added up. */
export interface HandlerProfile {
  add(delta: ProfileDelta): void;
  /** The totals, handlers by total time, most first. */
  snapshot(): ProfileDelta;
}

export function createHandlerProfile(): HandlerProfile {
  const handlers = new Map<string, HandlerProfileRow>();
  const calls = new Map<string, EthCallProfileRow>();
  const blockSeconds = emptyBuckets(BLOCK_SECONDS_BUCKETS);
  const blockTriggers = emptyBuckets(BLOCK_TRIGGER_BUCKETS);
  return {
    add(delta) {
      for (const r of delta.handlers) {
        const key = `${r.dataSource}\u0000${r.handler}`;
        let into = handlers.get(key);
        if (!into) handlers.set(key, (into = newRow(r.dataSource, r.handler)));
        into.calls += r.calls;
        into.totalMs += r.totalMs;
        into.maxMs = Math.max(into.maxMs, r.maxMs);
        addBuckets(into.seconds, r.seconds);
        into.storeGets += r.storeGets;
        into.storeSets += r.storeSets;
        into.storeRemoves += r.storeRemoves;
        into.ethCalls += r.ethCalls;
        into.ethCallMs += r.ethCallMs;
        into.ethCallsCached += r.ethCallsCached;
      }
      for (const c of delta.ethCalls) {
        const key = `${c.contract}\u0000${c.method}`;
        let into = calls.get(key);
        if (!into) calls.set(key, (into = { contract: c.contract, method: c.method, seconds: emptyBuckets(ETH_CALL_SECONDS_BUCKETS) }));
        addBuckets(into.seconds, c.seconds);
      }
      addBuckets(blockSeconds, delta.blockSeconds);
      addBuckets(blockTriggers, delta.blockTriggers);
    },
    snapshot() {
      const copy = (b: BucketCounts): BucketCounts => ({ counts: [...b.counts], sum: b.sum, count: b.count });
      return {
        handlers: [...handlers.values()].map((r) => ({ ...r, seconds: copy(r.seconds) })).sort((a, b) => b.totalMs - a.totalMs),
        ethCalls: [...calls.values()].map((c) => ({ ...c, seconds: copy(c.seconds) })),
        blockSeconds: copy(blockSeconds),
        blockTriggers: copy(blockTriggers),
      };
    },
  };
}
