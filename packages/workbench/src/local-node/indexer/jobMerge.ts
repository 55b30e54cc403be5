// After a block creates data sources, the rest of a loaded range is still right for the data sources
// it was loaded for; only the new ones' triggers are missing. They are loaded alone (their addresses
// only) and merged in, block by block, in graph-node's order, so a factory creating data sources in
// many blocks costs one small fetch per creation instead of reloading the whole range each time.
import { ChainReorgedError } from "../chain/index.js";
import type { BlockJob, LoadedTrigger } from "./hostProtocol.js";
import type { LoaderDataSource } from "./liveDataSources.js";

type Key = [number, number, number, number, number];

/**
 * Sort key in a block: `once` block handlers; then by transaction, its logs by index before its calls
 * in trace order; then the other block handlers; data sources in order.
 */
function keyOf(t: LoadedTrigger, sources: readonly LoaderDataSource[]): Key {
  if (t.kind === "loadedEvent") return [1, Number(t.transaction.index), 0, t.logIndex, t.dataSource];
  if (t.kind === "event") return [1, Number(t.event.transaction.index), 0, Number(t.event.logIndex), t.dataSource];
  if (t.kind === "refused") return [1, t.transactionIndex, 0, t.logIndex, t.dataSource];
  if (t.kind === "call") return [1, Number(t.call.transaction.index), 1, t.seq, t.dataSource];
  const once = sources[t.dataSource]?.blockHandlers.some((h) => h.handler === t.handler && h.filter?.kind === "once") ?? false;
  return [once ? 0 : 2, 0, 0, 0, t.dataSource];
}

function compare(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** `jobs` with `extra` merged in; both sorted by block, the result too. */
export function mergeJobs(jobs: BlockJob[], extra: BlockJob[], sources: readonly LoaderDataSource[]): BlockJob[] {
  const byBlock = new Map<number, BlockJob>(jobs.map((j) => [j.ptr.number, { ptr: j.ptr, triggers: [...j.triggers] }]));
  for (const e of extra) {
    const job = byBlock.get(e.ptr.number);
    if (!job) {
      byBlock.set(e.ptr.number, e);
      continue;
    }
    if (job.ptr.hash !== e.ptr.hash) throw new ChainReorgedError(`block ${e.ptr.number} changed while its range was loaded (the chain reorganised)`);
    const keyed = [...job.triggers, ...e.triggers].map((t, i) => ({ t, k: keyOf(t, sources), i }));
    // Stable: equal keys keep their order (the range's triggers first).
    keyed.sort((a, b) => compare(a.k, b.k) || a.i - b.i);
    job.triggers = keyed.map((x) => x.t);
  }
  return [...byBlock.values()].sort((a, b) => a.ptr.number - b.ptr.number);
}
