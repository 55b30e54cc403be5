// The deployment's block pointer and the hashes of the blocks it has indexed (read by reorg checks and
// by `block: {hash}` queries).
import type { Queryable } from "./database.js";
import type { StoreState } from "./storeState.js";
import type { BlockPtr, BlockPtrWithMeta } from "./types.js";

export async function setPointer(tx: Queryable, id: string, block: BlockPtrWithMeta): Promise<void> {
  await tx.query(
    `update subgraphs.deployment set latest_block_number = $2, latest_block_hash = $3, latest_block_timestamp = $4, latest_block_parent_hash = $5 where id = $1`,
    [id, block.number, block.hash, block.timestamp ?? null, block.parentHash ?? null],
  );
}

/** The deployment has indexed no block (reverted to before its first). */
export async function clearPointer(tx: Queryable, id: string): Promise<void> {
  await tx.query(
    `update subgraphs.deployment set latest_block_number = null, latest_block_hash = null, latest_block_timestamp = null, latest_block_parent_hash = null where id = $1`,
    [id],
  );
}

export async function recordBlockHash(tx: Queryable, id: string, block: BlockPtr): Promise<void> {
  await tx.query("insert into subgraphs.recent_block (deployment, number, hash) values ($1, $2, $3) on conflict (deployment, number) do update set hash = excluded.hash", [id, block.number, block.hash]);
}

/** Several hashes in one statement; at most one block per number (a statement may not upsert a row twice). */
export async function recordBlockHashes(tx: Queryable, id: string, hashes: BlockPtr[]): Promise<void> {
  await tx.query(
    `insert into subgraphs.recent_block (deployment, number, hash) select $1, n, h from unnest($2::int4[], $3::text[]) as u(n, h)
         on conflict (deployment, number) do update set hash = excluded.hash`,
    [id, hashes.map((b) => b.number), hashes.map((b) => b.hash)],
  );
}

export async function recentBlockHash({ db }: StoreState, id: string, number: number): Promise<string | null> {
  const rows = await db.query<{ hash: string }>("select hash from subgraphs.recent_block where deployment = $1 and number = $2", [id, number]);
  return rows[0]?.hash ?? null;
}

export async function blockNumberForHash({ db }: StoreState, id: string, hash: string): Promise<number | null> {
  const rows = await db.query<{ number: number }>("select number from subgraphs.recent_block where deployment = $1 and hash = $2", [id, hash.toLowerCase()]);
  return rows[0]?.number ?? null;
}
