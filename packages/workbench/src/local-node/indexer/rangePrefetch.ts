// Log ranges: fetched and loaded (blocks, receipts) ahead of the loop, and reused only if still canonical.
import { getBlock } from "../chain/index.js";
import { loadRange, type LoadedRange } from "./rangeLoader.js";
import type { JobBlockPtr } from "./hostProtocol.js";
import type { IndexerContext } from "./indexerContext.js";
import { isComposed, loadSourceRange } from "./sourceTriggers.js";

// With block handlers every block of a range may be fetched: keep ranges short enough to pipeline.
const BLOCK_HANDLER_RANGE = 1_000;

export function fetchRange(ctx: IndexerContext, from: number, head: number): Promise<LoadedRange> {
  if (isComposed(ctx.deployment)) {
    const composed = loadSourceRange(ctx, from, head);
    composed.catch(() => {}); // as below
    return composed;
  }
  const { sources } = ctx;
  const to = sources.hasBlockHandlers ? Math.min(head, from + BLOCK_HANDLER_RANGE - 1) : head;
  const filter = sources.filter;
  // Block handlers alone need no logs (an empty topic list would ask for every log).
  const chunk = filter.topic0s.length === 0 ? Promise.resolve({ logs: [], toBlock: to }) : ctx.fetcher.next(from, to, filter);
  const list = [...sources.list];
  const p = chunk.then((c) => loadRange(ctx.rpc, list, c.logs, from, c.toBlock));
  p.catch(() => {}); // a failed prefetch is simply fetched again
  return p;
}

/** Starts fetching the range at `from` while the current one runs and commits. */
export function prefetchRange(ctx: IndexerContext, from: number, head: number): void {
  ctx.prefetched = { from, range: fetchRange(ctx, from, head) };
}

/** The prefetched range if it starts at `from` (taken out of the context), else null. */
function prefetchedAt(ctx: IndexerContext, from: number): Promise<LoadedRange | null> | null {
  const ahead = ctx.prefetched;
  if (!ahead || ahead.from !== from) return null;
  ctx.prefetched = null;
  return ahead.range.catch(() => null);
}

/** The block is still the chain's at its height. */
async function stillCanonical(ctx: IndexerContext, ptr: JobBlockPtr): Promise<boolean> {
  return (await getBlock(ctx.rpc, ptr.number))?.hash === ptr.hash;
}

/** The range starting at `from`: the prefetched one if its last block is still canonical. */
export async function takeRange(ctx: IndexerContext, from: number, head: number): Promise<LoadedRange> {
  const ahead = prefetchedAt(ctx, from);
  // A prefetch for another start is dropped.
  ctx.prefetched = null;
  const range = await ahead;
  // Hashes chain: if the range's last block is unchanged, so is every block before it.
  if (range && (await stillCanonical(ctx, range.end))) return range;
  return fetchRange(ctx, from, head);
}

/**
 * The prefetched range that follows `after`, to run on without a step boundary: only if both `after`
 * and the range's last block are still canonical (with hashes chaining, the range then joins `after`).
 * Null when there is none or either moved: the next step starts from the pointer and its reorg check.
 */
export async function takeFollowingRange(ctx: IndexerContext, after: JobBlockPtr): Promise<LoadedRange | null> {
  const range = await prefetchedAt(ctx, after.number + 1);
  if (!range) return null;
  const [was, end] = await Promise.all([stillCanonical(ctx, after), stillCanonical(ctx, range.end)]);
  return was && end ? range : null;
}
