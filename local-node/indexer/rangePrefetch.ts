// Log ranges: fetched and loaded (blocks, receipts) ahead of the loop, and reused only if still canonical.
import { getBlock } from "../chain/index.js";
import { loadRange, type LoadedRange } from "./rangeLoader.js";
import type { IndexerContext } from "./indexerContext.js";

export function fetchRange(ctx: IndexerContext, from: number, head: number): Promise<LoadedRange> {
  const p = ctx.fetcher.next(from, head, ctx.filter).then((chunk) => loadRange(ctx.rpc, ctx.loaderSources, chunk.logs, chunk.toBlock));
  p.catch(() => {}); // a failed prefetch is simply fetched again
  return p;
}

/** Starts fetching the range at `from` while the current one runs and commits. */
export function prefetchRange(ctx: IndexerContext, from: number, head: number): void {
  ctx.prefetched = { from, range: fetchRange(ctx, from, head) };
}

/** The range starting at `from`: the prefetched one if its last block is still canonical. */
export async function takeRange(ctx: IndexerContext, from: number, head: number): Promise<LoadedRange> {
  const ahead = ctx.prefetched;
  ctx.prefetched = null;
  if (ahead && ahead.from === from) {
    const range = await ahead.range.catch(() => null);
    // Hashes chain: if the range's last block is unchanged, so is every block before it.
    if (range && (await getBlock(ctx.rpc, range.end.number))?.hash === range.end.hash) return range;
  }
  return fetchRange(ctx, from, head);
}
