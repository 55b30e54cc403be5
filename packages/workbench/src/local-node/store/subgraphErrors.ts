// Deterministic handler errors that did not fail the deployment (the manifest declares `nonFatalErrors`),
// kept as graph-node keeps its subgraph_error rows: the status API lists them, the deployment is
// unhealthy, queries see them from their block on (first_error_block, so `subgraphError: deny` answers
// `indexing_error`), and a revert drops those above the new pointer.
import type { Queryable } from "./database.js";
import type { StoreState } from "./storeState.js";
import type { BlockPtr, FatalError } from "./types.js";

export const SUBGRAPH_ERRORS_SQL = `
create table if not exists subgraphs.subgraph_error (
  deployment text not null,
  ordinal serial,
  block_number int4 not null,
  block_hash text not null,
  handler text,
  message text not null,
  primary key (deployment, ordinal)
);
`;

/** graph-node lists at most this many (its status schema: "limited to first 1000"). */
const LISTED = 1000;

export async function recordNonFatalErrors(q: Queryable, id: string, block: BlockPtr, errors: { message: string; handler: string | null }[]): Promise<void> {
  if (errors.length === 0) return;
  for (const e of errors) {
    await q.query("insert into subgraphs.subgraph_error (deployment, block_number, block_hash, handler, message) values ($1, $2, $3, $4, $5)", [id, block.number, block.hash, e.handler, e.message]);
  }
  await q.query(
    `update subgraphs.deployment set health = case when health = 'failed' then health else 'unhealthy' end,
       first_error_block = least(coalesce(first_error_block, $2), $2) where id = $1`,
    [id, block.number],
  );
}

/**
 * After a revert to `block` (or an unfail, with `block` null): errors above it are gone, a fatal error
 * above it is cleared, and health and first_error_block follow the non-fatal errors that remain.
 */
export async function settleErrorsAt(q: Queryable, id: string, block: number | null): Promise<void> {
  if (block !== null) await q.query("delete from subgraphs.subgraph_error where deployment = $1 and block_number > $2", [id, block]);
  await q.query(
    `update subgraphs.deployment set fatal_error = null,
       first_error_block = (select min(block_number) from subgraphs.subgraph_error where deployment = $1),
       health = case when exists (select 1 from subgraphs.subgraph_error where deployment = $1) then 'unhealthy' else 'healthy' end
     where id = $1 and ($2::int4 is null or first_error_block > $2::int4)`,
    [id, block],
  );
}

/** The non-fatal errors of a deployment, first to last. */
export async function nonFatalErrors({ db }: StoreState, id: string): Promise<FatalError[]> {
  const rows = await db.query<{ block_number: number; block_hash: string; handler: string | null; message: string }>(
    `select block_number, block_hash, handler, message from subgraphs.subgraph_error where deployment = $1 order by ordinal limit ${LISTED}`,
    [id],
  );
  return rows.map((r) => ({ message: r.message, block: { number: r.block_number, hash: r.block_hash }, handler: r.handler, deterministic: true }));
}
