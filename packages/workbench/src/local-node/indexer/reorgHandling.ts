// Reorgs: find the newest indexed block the chain still has (recent hashes in memory first, then the
// store's), revert the store to it and restart the worker's cache from there.
import { getBlock, findCommonAncestor } from "../chain/index.js";
import type { IndexerContext } from "./indexerContext.js";
import { reloadCreated, waitingFiles } from "./createdDataSources.js";
import { workerDataSourceCount } from "./sourceTriggers.js";

export async function handleReorg(ctx: IndexerContext): Promise<void> {
  const { rpc, store, id, startBlock } = ctx;
  ctx.prefetched = null;
  const from = ctx.pointer!;
  // What a chain cache kept may belong to the orphaned blocks.
  await rpc.chainMoved?.();
  let ancestor = await findCommonAncestor({ rpc, known: ctx.recent.list() });
  if (!ancestor) {
    const stored = [];
    for (let n = from.number - 1; n >= Math.max(startBlock, from.number - (ctx.options.reorgDepth ?? 256)); n--) {
      const hash = await store.recentBlockHash(id, n);
      if (hash) stored.push({ number: n, hash });
    }
    ancestor = await findCommonAncestor({ rpc, known: stored });
  }
  let target = ancestor;
  // Nothing we indexed survives: go back to just before the start block.
  if (!target && startBlock > 0) {
    const before = await getBlock(rpc, startBlock - 1);
    if (before) target = { number: before.number, hash: before.hash };
  }
  target ??= { number: -1, hash: "0x" };
  ctx.log("warning", `reorg: block ${from.number} (${from.hash.slice(0, 10)}) is no longer canonical; reverting to ${target.number}`);
  await store.revertTo(id, target);
  ctx.recent.truncateAbove(target.number);
  ctx.pointer = target.number >= 0 ? target : null;
  // Data sources created in the orphaned blocks are gone with them.
  await reloadCreated(ctx);
  await ctx.worker!.reset(workerDataSourceCount(ctx), waitingFiles(ctx));
}
