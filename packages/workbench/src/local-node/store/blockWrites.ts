// Entity writes per block, each batch in one transaction with the pointer and the block hashes, and
// their undoing on a reorg.
import type { StoreState } from "./storeState.js";
import { layoutOf } from "./storeState.js";
import { clearPointer, recordBlockHash, recordBlockHashes, setPointer } from "./blockPointer.js";
import { applyBlocks, revertAbove } from "./writes.js";
import { dropDataSourcesAbove, insertDataSources, markDataSourcesDone } from "./dynamicDataSources.js";
import { recordNonFatalErrors, settleErrorsAt } from "./subgraphErrors.js";
import { checkRevertable, pruneAfterWrites } from "./pruning.js";
import { checkNotBeforeGraft } from "./grafting.js";
import { lastRollupAfterRevert, rollUp } from "./rollups.js";
import { dropPoiJournalAbove, insertPoiJournal } from "./poiJournal.js";
import type { BlockChanges, BlockPtr, BlockPtrWithMeta } from "./types.js";
import type { TableLayout } from "./layout.js";

export async function writeBlocks(s: StoreState, id: string, blocks: BlockChanges[], recentBlocks: BlockPtr[]): Promise<void> {
  const last = blocks[blocks.length - 1];
  if (!last) return;
  const layout = await layoutOf(s, id);
  const times = blocks.flatMap((b) => (b.block.timestamp === undefined ? [] : [{ block: b.block.number, time: BigInt(b.block.timestamp) * 1_000_000n }]));
  let lastRollup = s.lastRollups.get(id);
  const countGeneration = s.immutableCounts.current();
  let inserted = new Map<TableLayout, number>();
  await s.db.transaction(async (tx) => {
    inserted = await applyBlocks(tx, layout, blocks.map((b) => ({ block: b.block.number, changes: b.changes, ...(b.copied ? { copied: b.copied } : {}) })));
    lastRollup = await rollUp(tx, layout, lastRollup, times);
    await insertPoiJournal(tx, id, blocks.flatMap((b) => (b.poiJournal ? [{ block: b.block.number, journal: b.poiJournal }] : [])));
    for (const b of blocks) {
      await insertDataSources(tx, id, b.dataSources ?? []);
      await markDataSourcesDone(tx, id, b.doneDataSources ?? [], b.block.number);
      await recordNonFatalErrors(tx, id, b.block, b.nonFatalErrors ?? []);
    }
    await setPointer(tx, id, last.block);
    // Every hash the indexer reports is kept (one small row per block): reorg checks read recent ones,
    // `block: {hash}` queries may name any block, as graph-node answers them from its block cache.
    // One row per number (a statement may not upsert the same row twice); the batch's own blocks win.
    const hashes = [...new Map([...recentBlocks, ...blocks.map((b) => b.block)].map((b) => [b.number, b])).values()];
    await recordBlockHashes(tx, id, hashes);
    await pruneAfterWrites(tx, s.pruning, layout, id, blocks.map((b) => b.block.number));
  });
  // Kept only once the write is through: a failed one leaves the tracker as it was.
  if (lastRollup !== undefined) s.lastRollups.set(id, lastRollup);
  s.immutableCounts.committed(id, last.block.number, inserted, countGeneration);
}

export async function revertTo(s: StoreState, id: string, block: BlockPtrWithMeta): Promise<void> {
  const layout = await layoutOf(s, id);
  // Before the first block (a reorg that leaves nothing of a start block 0): no pointer at all.
  const nothing = block.number < 0;
  let lastRollup = s.lastRollups.get(id);
  // Rows of immutable tables go: a count taken before or while the revert runs is not used again.
  s.immutableCounts.invalidate();
  try {
    await s.db.transaction(async (tx) => {
      await checkRevertable(tx, id, block.number);
      await checkNotBeforeGraft(tx, id, block.number);
      // The journal before the Poi$ table, in the order a proof catch-up takes them (writePoiDigests): on a
      // Postgres server the two transactions then wait for each other instead of deadlocking.
      await dropPoiJournalAbove(tx, id, block.number);
      await revertAbove(tx, layout, block.number);
      lastRollup = await lastRollupAfterRevert(tx, layout, lastRollup);
      await dropDataSourcesAbove(tx, id, block.number);
      if (nothing) await clearPointer(tx, id);
      else await setPointer(tx, id, block);
      await tx.query("delete from subgraphs.recent_block where deployment = $1 and number > $2", [id, block.number]);
      if (!nothing) await recordBlockHash(tx, id, block);
      // An error recorded above the new pointer no longer applies (graph-node unfails on revert).
      await settleErrorsAt(tx, id, block.number);
    });
  } finally {
    s.immutableCounts.invalidate();
  }
  if (lastRollup !== undefined) s.lastRollups.set(id, lastRollup);
}
