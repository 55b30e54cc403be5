// Entity writes and reverts for one deployment, inside a caller's transaction.
// Immutable rows carry their creation block (`block$`); mutable rows a `block_range` that a later
// write or a removal closes, so queries at an older block still see the old version.
// A file data source's rows carry its causality region; the chain's rows region 0 (the column default).
import type { Queryable } from "./database.js";
import type { RegionEntityChange as EntityChange } from "./types.js";
import { StoreError } from "./errors.js";
import { castParam, copyTableOf, type DeploymentLayout, type TableLayout } from "./layout.js";
import { columnText, copyLine, type CopiedRows } from "./rowText.js";

export interface BlockWrites {
  block: number;
  changes: EntityChange[];
  /** Immutable rows the handlers' thread wrote as COPY lines (rowText.ts), apart from `changes`. */
  copied?: CopiedRows[];
}

/**
 * Apply several blocks' changes, in block order. Immutable inserts of all blocks go in one statement.
 * Returns the rows each immutable table gained (every immutable table, zero included).
 */
export async function applyBlocks(tx: Queryable, layout: DeploymentLayout, blocks: BlockWrites[]): Promise<Map<TableLayout, number>> {
  // Immutable sets: last write per id wins (graph-node allows rewriting in the same block).
  const immutable = new Map<TableLayout, Map<string, { block: number; change: EntityChange & { op: "set" } }>>();
  for (const { block, changes } of blocks) {
    // By table and causality region: a region's write closes only that region's version.
    const mutable = new Map<TableLayout, Map<number, Map<string, EntityChange>>>();
    for (const change of changes) {
      const table = layout.tables.get(change.entityType);
      if (!table) throw new StoreError(`unknown entity type ${change.entityType}`, { details: { entityType: change.entityType } });
      if (table.immutable) {
        if (change.op === "remove") {
          throw new StoreError(`entity ${change.entityType}[${change.id}] is immutable and cannot be removed`, { details: { entityType: change.entityType, id: change.id } });
        }
        let byId = immutable.get(table);
        if (!byId) immutable.set(table, (byId = new Map()));
        const previous = byId.get(change.id);
        if (previous && previous.block !== block) {
          throw new StoreError(`immutable entity ${change.entityType}[${change.id}] written again in block ${block}`, { details: { entityType: change.entityType, id: change.id } });
        }
        byId.set(change.id, { block, change });
      } else {
        let byRegion = mutable.get(table);
        if (!byRegion) mutable.set(table, (byRegion = new Map()));
        const region = change.causalityRegion ?? 0;
        let byId = byRegion.get(region);
        if (!byId) byRegion.set(region, (byId = new Map()));
        byId.set(change.id, change);
      }
    }
    for (const [table, byRegion] of mutable) for (const [region, byId] of byRegion) await writeMutable(tx, table, block, region, [...byId.values()]);
  }
  const inserted = new Map<TableLayout, number>();
  for (const table of layout.tables.values()) if (table.immutable) inserted.set(table, 0);
  for (const [table, byId] of immutable) inserted.set(table, await insertImmutable(tx, table, [...byId.values()]));
  for (const [table, { lines, rows }] of copiedByTable(layout, blocks)) {
    // A row here that is also among the rows above, or twice here, breaks the id's unique index.
    if (!tx.copyFrom) throw new StoreError(`rows of ${table.entity.name} came as COPY lines, which this database does not take`);
    await tx.copyFrom(copySql(table), lines.join(""));
    inserted.set(table, inserted.get(table)! + rows);
  }
  return inserted;
}

function copiedByTable(layout: DeploymentLayout, blocks: BlockWrites[]): Map<TableLayout, { lines: string[]; rows: number }> {
  const byTable = new Map<TableLayout, { lines: string[]; rows: number }>();
  for (const { copied } of blocks) {
    for (const c of copied ?? []) {
      const table = layout.tables.get(c.entityType);
      if (!table?.immutable) throw new StoreError(`COPY lines for ${c.entityType}, which is no immutable entity type`, { details: { entityType: c.entityType } });
      let group = byTable.get(table);
      if (!group) byTable.set(table, (group = { lines: [], rows: 0 }));
      group.lines.push(c.lines);
      group.rows += c.rows;
    }
  }
  return byTable;
}

function copySql(table: TableLayout): string {
  const names = [...table.columns.map((c) => c.column), '"block$"', ...(table.causalityRegion ? ["causality_region"] : [])];
  return `copy ${table.qualified} (${names.join(", ")}) from '/dev/blob'`;
}

function idParams(table: TableLayout, ids: string[]): string[] {
  return ids.map((id) => (table.id.kind === "Bytes" ? `\\x${id.startsWith("0x") ? id.slice(2) : id}` : id));
}

/**
 * Rows from which an immutable insert goes through COPY where the database has it (PGlite): COPY has
 * no `on conflict`, and a batch this large comes from the indexer, whose host refuses a second insert
 * of an immutable entity in a later block before it reaches the store (as graph-node, a duplicate in
 * the store is then an error, not an overwrite).
 */
const COPY_FROM_ROWS = 256;

/** Returns the rows added: a rewrite in the same block replaces its row (see the conflict clause). */
async function insertImmutable(tx: Queryable, table: TableLayout, rows: { block: number; change: EntityChange & { op: "set" } }[]): Promise<number> {
  const cols = table.columns;
  const copy = copyTableOf(table);
  if (tx.copyFrom && rows.length >= COPY_FROM_ROWS) {
    await tx.copyFrom(copySql(table), rows.map((r) => copyLine(copy, r.change.id, r.change.data, r.block, r.change.causalityRegion ?? 0)).join(""));
    return rows.length;
  }
  const params: unknown[] = copy.columns.map((c) => rows.map((r) => columnText(copy, c, r.change.id, r.change.data)));
  params.push(rows.map((r) => r.block));
  const region = table.causalityRegion ? { column: ", causality_region", select: ", u.r", unnest: `, $${cols.length + 2}::int4[]`, name: ", r" } : { column: "", select: "", unnest: "", name: "" };
  if (table.causalityRegion) params.push(rows.map((r) => r.change.causalityRegion ?? 0));
  const selects = cols.map((c, i) => castParam(c, `u.c${i}`)).join(", ");
  const unnest = cols.map((_c, i) => `$${i + 1}::text[]`).join(", ");
  const names = cols.map((c, i) => `c${i}`).join(", ");
  const updates = cols.filter((c) => c !== table.id).map((c) => `${c.column} = excluded.${c.column}`);
  // A second write of the same id in the same block overwrites; an older row stays untouched (the host
  // rejects writes of an immutable entity in a later block before they reach the store).
  const conflict = updates.length > 0 ? `do update set ${updates.join(", ")} where t."block$" = excluded."block$"` : "do nothing";
  // A row this statement inserted has no xmax; one it updated has.
  const written = await tx.query<{ fresh: boolean }>(
    `insert into ${table.qualified} as t (${cols.map((c) => c.column).join(", ")}, "block$"${region.column})
     select ${selects}, u.b${region.select} from unnest(${unnest}, $${cols.length + 1}::int4[]${region.unnest}) as u(${names}, b${region.name})
     on conflict (${table.id.column}) ${conflict}
     returning (t.xmax = 0) as fresh`,
    params,
  );
  return written.filter((r) => r.fresh).length;
}

async function writeMutable(tx: Queryable, table: TableLayout, block: number, region: number, changes: EntityChange[]): Promise<void> {
  const ids = idParams(table, changes.map((c) => c.id));
  const idType = table.id.sqlType;
  const inRegion = table.causalityRegion ? ` and causality_region = ${Math.trunc(region)}` : "";
  // A version written earlier in this same block is replaced, not kept as history.
  await tx.query(`delete from ${table.qualified} where ${table.id.column} = any($1::text[]::${idType}[]) and lower(block_range) = $2 and upper_inf(block_range)${inRegion}`, [ids, block]);
  await tx.query(
    `update ${table.qualified} set block_range = int4range(lower(block_range), $2) where ${table.id.column} = any($1::text[]::${idType}[]) and upper_inf(block_range) and lower(block_range) < $2${inRegion}`,
    [ids, block],
  );
  const sets = changes.filter((c): c is EntityChange & { op: "set" } => c.op === "set");
  if (sets.length === 0) return;
  const cols = table.columns;
  const copy = copyTableOf(table);
  const params: unknown[] = copy.columns.map((c) => sets.map((s) => columnText(copy, c, s.id, s.data)));
  params.push(block);
  const selects = cols.map((c, i) => castParam(c, `u.c${i}`)).join(", ");
  const unnest = cols.map((_c, i) => `$${i + 1}::text[]`).join(", ");
  await tx.query(
    `insert into ${table.qualified} (${cols.map((c) => c.column).join(", ")}, block_range${table.causalityRegion ? ", causality_region" : ""})
     select ${selects}, int4range($${cols.length + 1}::int4, null)${table.causalityRegion ? `, ${Math.trunc(region)}` : ""} from unnest(${unnest}) as u(${cols.map((_c, i) => `c${i}`).join(", ")})`,
    params,
  );
}

/** Remove everything written above `block` and reopen versions closed above it. */
export async function revertAbove(tx: Queryable, layout: DeploymentLayout, block: number): Promise<void> {
  for (const table of layout.tables.values()) {
    if (table.immutable) {
      await tx.query(`delete from ${table.qualified} where "block$" > $1`, [block]);
    } else {
      await tx.query(`delete from ${table.qualified} where lower(block_range) > $1`, [block]);
      await tx.query(`update ${table.qualified} set block_range = int4range(lower(block_range), null) where coalesce(upper(block_range), 2147483647) > $1 and coalesce(upper(block_range), 2147483647) < 2147483647`, [block]);
    }
  }
}
