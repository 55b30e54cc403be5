// Data sources created by handlers, on the main thread: reloaded from the store (on start, after a
// revert or an error) so that the loader and the worker agree with what is committed, converted for
// the store, and asked for their triggers in the block that created them.
import { ChainReorgedError, getLogsInBlock } from "../chain/index.js";
import type { StoredDataSource } from "../store/index.js";
import { decodeContext, encodeContext } from "./contextCodec.js";
import type { BlockJob, CreatedDataSource, JobBlockPtr, Trigger } from "./hostProtocol.js";
import type { IndexerContext } from "./indexerContext.js";
import { loadRange } from "./rangeLoader.js";
import { unpackLoadedEvent } from "./runCodec.js";

/** Sets ctx.created and ctx.sources to the created data sources the store holds. */
export async function reloadCreated(ctx: IndexerContext): Promise<void> {
  const stored = await ctx.store.loadDataSources(ctx.id);
  const base = ctx.sources.staticCount;
  ctx.created = stored.map((d, i) => {
    const created: CreatedDataSource = { index: base + i, template: d.template, param: d.param, context: d.context === null ? null : decodeContext(d.context), creationBlock: d.creationBlock };
    return d.causalityRegion ? { ...created, causalityRegion: d.causalityRegion, doneAt: d.doneAt ?? null } : created;
  });
  if (ctx.sources.createdCount > ctx.created.length) ctx.sources.truncate(ctx.created.length);
  else if (ctx.sources.createdCount < ctx.created.length) ctx.sources.add(ctx.created.slice(ctx.sources.createdCount));
}

export function toStored(created: CreatedDataSource[]): StoredDataSource[] {
  return created.map((c) => {
    const stored: StoredDataSource = { template: c.template, param: c.param, context: c.context === null ? null : encodeContext(c.context), creationBlock: c.creationBlock };
    return c.causalityRegion === undefined ? stored : { ...stored, causalityRegion: c.causalityRegion, doneAt: null };
  });
}

/** Indexes of the file data sources whose file has not been processed (as the store holds them). */
export function waitingFiles(ctx: IndexerContext): number[] {
  return ctx.created.filter((c) => c.causalityRegion !== undefined && (c.doneAt ?? null) === null).map((c) => c.index);
}

/** The triggers of data sources created in `block`, in graph-node's order within the block. */
export async function triggersIn(ctx: IndexerContext, block: JobBlockPtr, created: CreatedDataSource[]): Promise<Trigger[]> {
  const sources = ctx.sources.describe(created);
  const topics = [...new Set(sources.flatMap((s) => s.decoder.topics))];
  const logs = topics.length === 0 ? [] : await getLogsInBlock(ctx.rpc, block.hash, { addresses: [...new Set(sources.map((s) => s.address!))], topic0s: topics });
  const range = await loadRange(ctx.rpc, sources, logs, block.number, block.number);
  if (range.end.hash !== block.hash) throw new ChainReorgedError(`block ${block.number} is no longer ${block.hash} (the chain reorganised)`);
  // Sent to the worker as objects (a sync answer), not as a packed run.
  return (range.jobs[0]?.triggers ?? []).map((t) => (t.kind === "loadedEvent" ? unpackLoadedEvent(t) : t));
}

/** The jobs of blocks `from`..`to` for data sources just created (their addresses alone). */
export async function loadCreatedTriggers(ctx: IndexerContext, created: CreatedDataSource[], from: number, to: number): Promise<BlockJob[]> {
  const sources = created.filter((c) => c.causalityRegion === undefined).map((c) => ctx.sources.list[c.index]!);
  const topics = [...new Set(sources.flatMap((s) => s.decoder.topics))];
  const filter = { addresses: [...new Set(sources.map((s) => s.address!))], topic0s: topics };
  const logs = [];
  for (let at = from; topics.length > 0 && at <= to; ) {
    const chunk = await ctx.fetcher.next(at, to, filter);
    logs.push(...chunk.logs);
    at = chunk.toBlock + 1;
  }
  const range = await loadRange(ctx.rpc, sources, logs, from, to);
  // The range's last block is always loaded; it is a job only when it has triggers.
  return range.jobs;
}
