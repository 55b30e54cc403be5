// Data sources created by handlers (`Template.create`), stored with the deployment as graph-node keeps
// them in its `data_sources$` table: they are reloaded on restart, and a revert drops those created
// above the new pointer. Written in the same transaction as the block that created them. A file data
// source also keeps its causality region and the block its file was processed in (`done_at`), which
// a revert below that block clears, so the file is processed again.
import type { Queryable } from "./database.js";
import type { StoreState } from "./storeState.js";
import type { StoredDataSource } from "./types.js";

export const DYNAMIC_DATA_SOURCES_SQL = `
create table if not exists subgraphs.dynamic_data_source (
  deployment text not null,
  ordinal int4 not null,
  template text not null,
  param text not null,
  context text,
  creation_block int4 not null,
  primary key (deployment, ordinal)
);
alter table subgraphs.dynamic_data_source add column if not exists causality_region int4 not null default 0;
alter table subgraphs.dynamic_data_source add column if not exists done_at int4;
`;

/** Appends the data sources, numbered after those already stored. */
export async function insertDataSources(q: Queryable, id: string, dataSources: StoredDataSource[]): Promise<void> {
  if (dataSources.length === 0) return;
  const rows = await q.query<{ n: number }>("select coalesce(max(ordinal) + 1, 0)::int4 as n from subgraphs.dynamic_data_source where deployment = $1", [id]);
  let ordinal = rows[0]?.n ?? 0;
  for (const ds of dataSources) {
    await q.query(
      "insert into subgraphs.dynamic_data_source (deployment, ordinal, template, param, context, creation_block, causality_region, done_at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
      [id, ordinal++, ds.template, ds.param, ds.context, ds.creationBlock, ds.causalityRegion ?? 0, ds.doneAt ?? null],
    );
  }
}

/** Marks file data sources (by creation ordinal) as processed at `block`. */
export async function markDataSourcesDone(q: Queryable, id: string, ordinals: number[], block: number): Promise<void> {
  if (ordinals.length === 0) return;
  await q.query("update subgraphs.dynamic_data_source set done_at = $3 where deployment = $1 and ordinal = any($2::int4[])", [id, ordinals, block]);
}

export async function dropDataSourcesAbove(q: Queryable, id: string, block: number): Promise<void> {
  await q.query("delete from subgraphs.dynamic_data_source where deployment = $1 and creation_block > $2", [id, block]);
  await q.query("update subgraphs.dynamic_data_source set done_at = null where deployment = $1 and done_at > $2", [id, block]);
}

/** Every created data source of the deployment, in creation order. */
export async function loadDataSources(s: StoreState, id: string): Promise<StoredDataSource[]> {
  const rows = await s.db.query<{ template: string; param: string; context: string | null; creation_block: number; causality_region: number; done_at: number | null }>(
    "select template, param, context, creation_block, causality_region, done_at from subgraphs.dynamic_data_source where deployment = $1 order by ordinal",
    [id],
  );
  return rows.map((r) => ({ template: r.template, param: r.param, context: r.context, creationBlock: r.creation_block, causalityRegion: r.causality_region, doneAt: r.done_at }));
}
