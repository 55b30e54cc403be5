// The proof-of-indexing journal: each block's recorded events (bytes from local-node/poi), written in the
// block's own transaction and kept until they are hashed into the deployment's `Poi$` digests. Kept in
// the store, so a restart, a revert and a graft see exactly the blocks that were committed.
import type { Queryable } from "./database.js";
import type { StoreState } from "./storeState.js";
import { layoutOf } from "./storeState.js";
import { applyBlocks } from "./writes.js";
import { binaryCopy } from "./copyBinary.js";
import type { PoiDigestWrite, PoiJournalEntry, PoiJournalRow } from "./types.js";
import { StoreError } from "./errors.js";

export const POI_JOURNAL_SQL = `
create table if not exists subgraphs.poi_journal (
  seq bigserial primary key,
  deployment text not null,
  block int4 not null,
  entry bytea not null,
  -- The causality regions the entry has events of: each has a Poi$ entity from this block on.
  regions text[] not null
);
-- The entries come compressed (local-node/poi/journal.ts): Postgres need not try again.
alter table subgraphs.poi_journal alter column entry set storage external;
create index if not exists poi_journal_deployment_block on subgraphs.poi_journal (deployment, block, seq);
`;

export async function insertPoiJournal(tx: Queryable, id: string, rows: { block: number; journal: PoiJournalEntry }[]): Promise<void> {
  if (rows.length === 0) return;
  if (tx.copyFrom) {
    // The entries as they are (binary COPY): as hex in a text array, PGlite spent two to three times as
    // long parsing them back, on the thread that commits.
    const copied = binaryCopy(rows.map(({ block, journal }) => [{ text: id }, { int4: block }, { bytea: journal.entry }, { textArray: journal.regions }]));
    await tx.copyFrom("copy subgraphs.poi_journal (deployment, block, entry, regions) from '/dev/blob' with (format binary)", copied);
    return;
  }
  // As hex text and JSON: one statement for the batch.
  await tx.query(
    `insert into subgraphs.poi_journal (deployment, block, entry, regions)
     select $1, b, decode(e, 'hex'), array(select jsonb_array_elements_text(r)) from unnest($2::int4[], $3::text[], $4::jsonb[]) as u(b, e, r)`,
    [
      id,
      rows.map((r) => r.block),
      rows.map(({ journal: { entry } }) => Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength).toString("hex")),
      rows.map((r) => JSON.stringify(r.journal.regions)),
    ],
  );
}

/** The regions whose journal entries up to `block` are not hashed yet, as SQL over `$deploymentParam`, `$blockParam`. */
export function journaledRegionsSql(deploymentParam: string, blockParam: string): string {
  return `select unnest(regions) from subgraphs.poi_journal where deployment = ${deploymentParam} and block <= ${blockParam}`;
}

export async function dropPoiJournalAbove(tx: Queryable, id: string, block: number): Promise<void> {
  await tx.query("delete from subgraphs.poi_journal where deployment = $1 and block > $2", [id, block]);
}

/** A graft starts with the base's entries up to the graft block that the base had not hashed yet. */
export async function copyPoiJournal(tx: Queryable, id: string, base: string, block: number): Promise<void> {
  await tx.query(
    "insert into subgraphs.poi_journal (deployment, block, entry, regions) select $1, block, entry, regions from subgraphs.poi_journal where deployment = $2 and block <= $3 order by block, seq",
    [id, base, block],
  );
}

/** The oldest entries still to hash, in block order: at most `limit.rows`, and no more than `limit.bytes` past the first. */
export async function readPoiJournal({ db }: StoreState, id: string, limit: { rows: number; bytes: number }): Promise<PoiJournalRow[]> {
  const rows = await db.query<{ seq: string; block: number; entry: Uint8Array }>(
    `select seq::text as seq, block, entry from (
       select seq, block, entry, sum(octet_length(entry)) over (order by block, seq) - octet_length(entry) as before
         from subgraphs.poi_journal where deployment = $1 order by block, seq limit $2
     ) as t where before < $3 order by block, seq`,
    [id, limit.rows, limit.bytes],
  );
  return rows.map((r) => ({ seq: r.seq, block: Number(r.block), entry: new Uint8Array(r.entry) }));
}

/**
 * One transaction: takes the hashed rows out of the journal and writes their digests at their blocks.
 * A row a revert removed meanwhile (and every row after it) is not written: answers how many were.
 */
export async function writePoiDigests(s: StoreState, id: string, writes: PoiDigestWrite[]): Promise<number> {
  if (writes.length === 0) return 0;
  const layout = await layoutOf(s, id);
  return s.db.transaction(async (tx) => {
    const taken = await tx.query<{ seq: string }>("delete from subgraphs.poi_journal where deployment = $1 and seq = any($2::int8[]) returning seq::text as seq", [id, writes.map((w) => w.seq)]);
    const present = new Set(taken.map((r) => r.seq));
    let kept = 0;
    while (kept < writes.length && present.has(writes[kept]!.seq)) kept++;
    // A revert removes a suffix of the journal: a gap would mean digests joined across a missing block.
    if (present.size !== kept) throw new StoreError(`deployment ${id}: the proof-of-indexing journal lost a block in the middle`);
    await applyBlocks(tx, layout, writes.slice(0, kept).map((w) => ({ block: w.block, changes: w.changes })));
    return kept;
  });
}
