// graph-node's pruning (`indexerHints.prune`, history_blocks): a deployment keeps that many blocks of
// history. Once a written block passes earliest + history_blocks × slack factor, the versions that ended
// before (block − history_blocks) are deleted and the earliest block queries may ask for moves there.
// graph-node starts that in a background task after the write; here it runs in the write's own
// transaction, block by block, which gives what graph-node gives with unbatched writes
// (GRAPH_STORE_WRITE_BATCH_SIZE=0; its batches otherwise depend on timing).
import type { Queryable } from "./database.js";
import { BLOCK_MAX, type DeploymentLayout } from "./layout.js";
import { StoreError } from "./errors.js";
import { earliestBlockSql } from "./metadata.js";
import type { PruningPolicy } from "./types.js";

export const DEFAULT_PRUNING_POLICY: PruningPolicy = { reorgThreshold: 250, slackFactor: 1.2 };

/**
 * The earliest block after writing `blocks` (ascending), as graph-node's check after each write and its
 * PruneRequest decide: no prune while history fits, none for history_blocks at or below the reorg
 * threshold (graph-node refuses those requests), none before the head passes history_blocks.
 */
export function earliestAfterWrites(policy: PruningPolicy, historyBlocks: number, earliest: number, blocks: number[]): number {
  if (historyBlocks <= policy.reorgThreshold || historyBlocks >= BLOCK_MAX) return earliest;
  let current = earliest;
  for (const block of blocks) {
    if (block <= current + historyBlocks * policy.slackFactor || block <= historyBlocks) continue;
    current = Math.max(current, block - historyBlocks);
  }
  return current;
}

/** Prunes the deployment's history after `blocks` were written, inside the write's transaction. */
export async function pruneAfterWrites(tx: Queryable, policy: PruningPolicy, layout: DeploymentLayout, id: string, blocks: number[]): Promise<void> {
  const [row] = await tx.query<{ history_blocks: number; earliest: number }>(
    `select history_blocks, ${earliestBlockSql()} as earliest from subgraphs.deployment where id = $1`,
    [id],
  );
  if (!row) return;
  const earliest = earliestAfterWrites(policy, row.history_blocks, row.earliest, blocks);
  if (earliest === row.earliest) return;
  await tx.query("update subgraphs.deployment set earliest_block = $2 where id = $1", [id, earliest]);
  // Versions that ended at or before the new earliest block can never be read again. Immutable
  // entities never end, so their tables keep every row.
  for (const table of layout.tables.values()) {
    if (!table.immutable) await tx.query(`delete from ${table.qualified} where coalesce(upper(block_range), ${BLOCK_MAX}) <= $1`, [earliest]);
  }
}

/** A revert may not reach below pruned history: the versions it would restore are gone. */
export async function checkRevertable(tx: Queryable, id: string, block: number): Promise<void> {
  const [row] = await tx.query<{ earliest_block: number | null; history_blocks: number }>("select earliest_block, history_blocks from subgraphs.deployment where id = $1", [id]);
  if (row?.earliest_block != null && block < row.earliest_block) {
    throw new StoreError(
      `cannot revert deployment ${id} to block ${block}: it keeps ${row.history_blocks} blocks of history (indexerHints.prune) and has pruned everything before block ${row.earliest_block}`,
      { details: { id, block, earliestBlock: row.earliest_block } },
    );
  }
}
