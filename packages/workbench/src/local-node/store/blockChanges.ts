// What a block changed in a deployment, read back from the entity versions the store wrote (the status
// API's entityChangesInBlock, as graph-node's find_changes): a version that starts at the block is a
// set, a mutable version that ends there with no new one for its id is a removal. The proof-of-indexing
// table is not the subgraph's. Also the sizes of a deployment's tables (the status API's subgraphSize).
import { POI_ENTITY_TYPE } from "../../subgraph-schema/index.js";
import { rowToEntity, selectAllSql, selectExpr } from "./layout.js";
import { layoutOf, type StoreState } from "./storeState.js";
import type { BlockEntityChanges, DeploymentSize } from "./types.js";

export async function entityChangesInBlock(s: StoreState, id: string, block: number): Promise<BlockEntityChanges> {
  const layout = await layoutOf(s, id);
  const out: BlockEntityChanges = { sets: [], removals: [] };
  for (const [entityType, table] of layout.tables) {
    if (table.entity.name === POI_ENTITY_TYPE) continue;
    const starts = table.immutable ? `t."block$" = $1` : `lower(t.block_range) = $1`;
    const rows = await s.db.query(`select ${selectAllSql(table)} from ${table.qualified} t where ${starts}`, [block]);
    const setIds = new Set<string>();
    for (const row of rows) {
      const data = rowToEntity(table, row);
      out.sets.push({ entityType, data });
      setIds.add(String(row[table.id.field.name]));
    }
    if (table.immutable) continue;
    const ended = await s.db.query<{ id: string }>(
      `select ${selectExpr(table.id)} as id from ${table.qualified} t where upper(t.block_range) = $1`,
      [block],
    );
    for (const { id: entityId } of ended) if (!setIds.has(String(entityId))) out.removals.push({ entityType, id: String(entityId) });
  }
  return out;
}

/** The deployment's tables as Postgres measures them: rows estimated by the planner's statistics. */
export async function deploymentSize(s: StoreState, id: string): Promise<DeploymentSize> {
  const layout = await layoutOf(s, id);
  const [row] = await s.db.query<Record<string, string>>(
    `select coalesce(sum(greatest(c.reltuples, 0)), 0)::bigint::text as row_estimate,
            coalesce(sum(pg_relation_size(c.oid)), 0)::text as table_size,
            coalesce(sum(pg_indexes_size(c.oid)), 0)::text as index_size,
            coalesce(sum(case when c.reltoastrelid = 0 then 0 else pg_total_relation_size(c.reltoastrelid) end), 0)::text as toast_size,
            coalesce(sum(pg_total_relation_size(c.oid)), 0)::text as total_size
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind = 'r'`,
    [layout.schemaName],
  );
  const big = (v: string | undefined) => BigInt(v ?? "0");
  return { rowEstimate: big(row?.row_estimate), tableSize: big(row?.table_size), indexSize: big(row?.index_size), toastSize: big(row?.toast_size), totalSize: big(row?.total_size) };
}
