// Entity reads for the mappings (by id, derived) and the GraphQL layer (entity queries, counts).
// The mappings' reads see the chain's causality region only: what file data sources wrote is not theirs.
import { POI_ENTITY_TYPE } from "../../subgraph-schema/index.js";
import { StoreError } from "./errors.js";
import { onchainOnly, rowToEntity, selectAllSql, visibleAt, BLOCK_MAX } from "./layout.js";
import { runEntityQuery } from "./querySql.js";
import { journaledRegionsSql } from "./poiJournal.js";
import { layoutOf, type StoreState } from "./storeState.js";
import type { EntityQuery, EntityQueryResult } from "./entityQuery.js";
import type { EntityData } from "./types.js";

export async function getEntity(s: StoreState, id: string, entityType: string, entityId: string, block?: number): Promise<EntityData | null> {
  const layout = await layoutOf(s, id);
  const table = layout.tables.get(entityType);
  if (!table) throw new StoreError(`unknown entity type ${entityType}`, { details: { entityType } });
  const idParam = table.id.kind === "Bytes" ? `\\x${entityId.replace(/^0x/, "")}` : entityId;
  const rows = await s.db.query(
    `select ${selectAllSql(table)} from ${table.qualified} t where t.${table.id.column} = $1::text::${table.id.sqlType} and ${visibleAt(table, "$2")}${onchainOnly(table)} limit 1`,
    [idParam, block ?? BLOCK_MAX],
  );
  return rows[0] ? rowToEntity(table, rows[0]) : null;
}

export async function getDerived(s: StoreState, id: string, entityType: string, field: string, entityId: string, block?: number): Promise<EntityData[]> {
  const layout = await layoutOf(s, id);
  const table = layout.tables.get(entityType);
  const column = table?.columnsByField.get(field);
  if (!table || !column) throw new StoreError(`unknown field ${entityType}.${field}`, { details: { entityType, field } });
  const param = column.kind === "Bytes" ? `\\x${entityId.replace(/^0x/, "")}` : entityId;
  const cond = column.list ? `$1::text::${column.sqlType.replace("[]", "")} = any(t.${column.column})` : `t.${column.column} = $1::text::${column.sqlType}`;
  const rows = await s.db.query(
    `select ${selectAllSql(table)} from ${table.qualified} t where ${cond} and ${visibleAt(table, "$2")}${onchainOnly(table)} order by t.${table.id.column}`,
    [param, block ?? BLOCK_MAX],
  );
  return rows.map((r) => rowToEntity(table, r));
}

/**
 * Entities at the head, or as of `block` (null: none yet). The status API counts as of the pointer it read
 * a moment before, so that a commit landing in between cannot show entities past the pointer (graph-node
 * stores the count with the pointer).
 */
export async function entityCount(s: StoreState, id: string, block?: number | null): Promise<number> {
  if (block === null) return 0;
  const layout = await layoutOf(s, id);
  let total = 0;
  for (const table of layout.tables.values()) {
    // Rollups are not entities the subgraph wrote.
    if (table.aggregation) continue;
    // A region's digest is an entity from its first journaled block on, hashed or not yet (local-node/proofs).
    if (table.entity.name === POI_ENTITY_TYPE) {
      const [row] = await s.db.query<{ n: string }>(
        `select count(*)::text as n from (select t.${table.id.column} from ${table.qualified} t where ${visibleAt(table, "$1")} union ${journaledRegionsSql("$2", "$1")}) as regions`,
        [block ?? BLOCK_MAX, id],
      );
      total += Number(row?.n ?? 0);
      continue;
    }
    if (table.immutable && block !== undefined) {
      total += await s.immutableCounts.rowsAt(s.db, table, block);
      continue;
    }
    const [row] = await s.db.query<{ n: string }>(`select count(*)::text as n from ${table.qualified} t where ${visibleAt(table, "$1")}`, [block ?? BLOCK_MAX]);
    total += Number(row?.n ?? 0);
  }
  return total;
}

export async function queryEntities(s: StoreState, id: string, query: EntityQuery): Promise<EntityQueryResult> {
  // The GraphQL layer has checked the block against the pointer (one query less per request).
  const layout = await layoutOf(s, id);
  if (query.timeoutMs === undefined || s.db.kind !== "postgres") return runEntityQuery(s.db, layout, query);
  // The query's deadline also stops the statement itself, not only the wait for it.
  const ms = Math.max(1, Math.ceil(query.timeoutMs));
  return s.db.transaction(async (tx) => {
    await tx.query(`set local statement_timeout = ${ms}`);
    return runEntityQuery(tx, layout, query);
  });
}

/** The proof-of-indexing digest of each causality region as of `block`. */
export async function poiDigests(s: StoreState, id: string, block: number): Promise<{ region: string; digest: Uint8Array }[]> {
  const table = (await layoutOf(s, id)).tables.get(POI_ENTITY_TYPE)!;
  const rows = await s.db.query(`select ${selectAllSql(table)} from ${table.qualified} t where ${visibleAt(table, "$1")} order by t.id`, [block]);
  return rows.map((row) => {
    const e = rowToEntity(table, row);
    const region = e.get("id");
    const digest = e.get("digest");
    if (region?.kind !== "String" || digest?.kind !== "Bytes") throw new StoreError(`deployment ${id}: a proof-of-indexing row without its region or digest`);
    return { region: region.value, digest: digest.value };
  });
}
