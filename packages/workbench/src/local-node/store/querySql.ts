// EntityQuery -> SQL. One statement per entity type and nesting level: the top level uses the
// indexes (attribute prefix indexes for equality, id for ordering); nested references are fetched
// for all parents at once and grouped in JS.
import type { Queryable } from "./database.js";
import { StoreError } from "./errors.js";
import { filterSql, type Params } from "./filterSql.js";
import { quoteIdent, selectExpr, visibleAt, type ColumnLayout, type DeploymentLayout, type TableLayout } from "./layout.js";
import type { ChildQuery, EntityFilter, EntityOrder, EntityQuery, EntityQueryResult, ResultObject, Selection } from "./entityQuery.js";
import { withCurrentBucketSql } from "./rollups.js";

/** What one statement fetches: a query's paging, filter and selection over one or more tables. */
type FetchSpec = Pick<EntityQuery, "filter" | "order" | "skip" | "first" | "block" | "selection" | "current"> & {
  tables: TableLayout[];
  /** Restricts rows to the parents' children; adds the `__parent` key(s) to each row. */
  parentLink?: ParentLink;
};

type ParentLink =
  /** Rows whose id is in `ids` (forward references). */
  | { kind: "ids"; ids: string[] }
  /** Rows whose back-reference `field` points at one of `ids` (@derivedFrom); at most `perParent` each. */
  | { kind: "back"; field: string; ids: string[]; perParent: number };

export async function runEntityQuery(db: Queryable, layout: DeploymentLayout, query: EntityQuery): Promise<EntityQueryResult> {
  const tables = query.entityTypes.map((name) => tableOf(layout, name));
  const rows = await fetchRows(db, layout, { ...query, tables });
  return { rows };
}

function tableOf(layout: DeploymentLayout, name: string): TableLayout {
  const t = layout.tables.get(name);
  if (!t) throw new StoreError(`unknown entity type ${name}`, { details: { entityType: name } });
  return t;
}

/** The concrete tables behind an entity type or interface name. */
function tablesFor(layout: DeploymentLayout, name: string): TableLayout[] {
  const iface = layout.schema.interfaces.get(name);
  return iface ? iface.implementedBy.map((n) => tableOf(layout, n)) : [tableOf(layout, name)];
}

async function fetchRows(db: Queryable, layout: DeploymentLayout, spec: FetchSpec): Promise<ResultObject[]> {
  const perTable = await Promise.all(spec.tables.map((t) => fetchTable(db, layout, t, spec)));
  let rows: ResultObject[];
  if (perTable.length === 1) {
    rows = perTable[0] ?? [];
  } else {
    rows = perTable.flat().sort(compareRows(spec.order));
    if (!spec.parentLink) rows = rows.slice(spec.skip, spec.skip + spec.first);
  }
  await fetchChildren(db, layout, spec, rows);
  return rows;
}

async function fetchTable(db: Queryable, layout: DeploymentLayout, t: TableLayout, spec: FetchSpec): Promise<ResultObject[]> {
  const params: Params = [spec.block];
  const where = [visibleAt(t, "$1")];
  if (spec.filter) where.push(filterSql(layout, t, "t", spec.filter, params, spec.block));
  const select = [`${selectExpr(t.id)} as "__id"`];
  const link = spec.parentLink;
  if (link?.kind === "ids") {
    params.push(link.ids.map((id) => idParam(t, id)));
    where.push(`t.${t.id.column} = any($${params.length}::text[]::${t.id.sqlType}[])`);
  } else if (link?.kind === "back") {
    const back = t.columnsByField.get(link.field);
    if (!back) throw new StoreError(`unknown field ${t.entity.name}.${link.field}`);
    const base = back.sqlType.replace("[]", "");
    params.push(link.ids.map((id) => (back.kind === "Bytes" ? `\\x${id.replace(/^0x/, "")}` : id)));
    where.push(back.list ? `t.${back.column} && $${params.length}::text[]::${base}[]` : `t.${back.column} = any($${params.length}::text[]::${base}[])`);
    select.push(`${selectExpr(back)} as "__back"`);
  }
  for (const sel of spec.selection) {
    if (sel.kind === "typename") continue;
    const c = t.columnsByField.get(sel.field);
    if (sel.kind === "field") {
      if (c) select.push(`${selectExpr(c)} as ${quoteIdent(sel.key)}`);
    } else if (c) {
      // A forward reference: keep the referenced id(s) to join the children.
      select.push(`${selectExpr(c)} as ${quoteIdent(`__ref_${sel.key}`)}`);
    }
  }
  const search = spec.order?.fulltextText !== undefined ? t.fulltexts.get(spec.order.field) : undefined;
  const orderCol = spec.order && !search ? t.columnsByField.get(spec.order.field) : undefined;
  if (spec.order && !orderCol && !search) {
    // The field is on another implementer of an interface: this table sorts by id only.
    if (spec.tables.length === 1) throw new StoreError(`Entity \`${t.entity.name}\` has no attribute \`${spec.order.field}\``);
  }
  const dir = spec.order?.direction === "desc" ? "desc" : "asc";
  let orderExpr: string | null = null;
  if (search) {
    params.push(spec.order!.fulltextText);
    orderExpr = `${search.def.algorithm === "proximityRank" ? "ts_rank_cd" : "ts_rank"}(t.${search.column}, to_tsquery($${params.length}))`;
  } else if (orderCol && spec.order?.childField) {
    orderExpr = childOrderExpr(layout, t, orderCol, spec.order.childField, params);
  } else if (orderCol && orderCol !== t.id) {
    orderExpr = `t.${orderCol.column}`;
  }
  const orderBy = orderExpr ? `${orderExpr} ${dir}, t.${t.id.column} ${dir}` : `t.${t.id.column} ${dir}`;
  if (orderExpr && spec.tables.length > 1) select.push(`${orderExpr} as "__order"`);
  // Children of many parents are sliced per parent in JS; several tables are merged, then sliced.
  let limit = "";
  if (!link) limit = spec.tables.length === 1 ? ` limit ${spec.first} offset ${spec.skip}` : ` limit ${spec.first + spec.skip}`;
  // `current: include` reads an aggregation's rows with its in-progress bucket in their place.
  const from = spec.current && t.aggregation ? `(${withCurrentBucketSql(layout, t)}) t` : `${t.qualified} t`;
  let sql = `select ${select.join(", ")} from ${from} where ${where.join(" and ")} order by ${orderBy}${limit}`;
  const back = link?.kind === "back" ? t.columnsByField.get(link.field) : undefined;
  if (link?.kind === "back" && back && !back.list) {
    // Never more children per parent than the response can hold (graph-node limits them in SQL too).
    const ranked = `select ${select.join(", ")}, row_number() over (partition by t.${back.column} order by ${orderBy}) as "__rank" from ${from} where ${where.join(" and ")}`;
    sql = `select * from (${ranked}) w where w."__rank" <= ${link.perParent} order by w."__rank"`;
  }
  // One JSON text per query instead of a protocol row per entity: about twice as fast to read back
  // (PGlite decodes every field in JS). Aggregating a sorted subquery keeps its order.
  const [result] = await db.query<{ j: string }>(`select coalesce(json_agg(r), '[]')::text as j from (${sql}) r`, params).catch((error: unknown) => {
    // graph-node's words for a search text to_tsquery cannot parse (the database's message, unprefixed).
    const tsquery = /syntax error in tsquery.*/.exec(error instanceof Error ? error.message : String(error))?.[0];
    if (tsquery) throw new StoreError(`Invalid fulltext search query syntax. Error: ${tsquery}. Hint: Search terms with spaces need to be enclosed in single quotes`, { cause: error });
    throw error;
  });
  const rows = JSON.parse(result?.j ?? "[]") as ResultObject[];
  for (const row of rows) row.__typename = t.entity.name;
  return rows;
}

/** The referenced entity's attribute as of the query block, for `orderBy: field__childField`. */
function childOrderExpr(layout: DeploymentLayout, t: TableLayout, ref: ColumnLayout, childField: string, params: Params): string {
  const def = t.entity.fieldsByName.get(ref.field.name);
  if (def?.type.kind !== "reference") throw new StoreError(`Ordering by \`${ref.field.name}__${childField}\` is not supported for type \`${t.entity.name}\``);
  const child = tableOf(layout, def.type.target);
  const col = child.columnsByField.get(childField);
  if (!col) throw new StoreError(`Entity \`${child.entity.name}\` has no attribute \`${childField}\``);
  return `(select c.${col.column} from ${child.qualified} c where c.${child.id.column} = t.${ref.column} and ${visibleAt(child, "$1", "c")} limit 1)`;
}

function idParam(t: TableLayout, id: string): string {
  return t.id.kind === "Bytes" ? `\\x${id.replace(/^0x/, "")}` : id;
}

async function fetchChildren(db: Queryable, layout: DeploymentLayout, spec: FetchSpec, rows: ResultObject[]): Promise<void> {
  for (const sel of spec.selection) {
    if (sel.kind !== "child") continue;
    const fieldDef = spec.tables.map((t) => t.entity.fieldsByName.get(sel.field)).find((f) => f !== undefined);
    if (!fieldDef || fieldDef.type.kind !== "reference") continue;
    const q: ChildQuery = sel.query;
    const childTables = q.aggregation ? [tableOf(layout, q.aggregation.table)] : tablesFor(layout, fieldDef.type.target);
    if (rows.length === 0) continue;
    if (fieldDef.derivedFrom !== null) {
      const parentIds = rows.map((r) => String(r.__id));
      const children = await fetchRows(db, layout, {
        tables: childTables, filter: q.filter, order: q.order, skip: 0, first: q.first, block: spec.block, selection: q.selection,
        ...(q.aggregation?.current ? { current: true } : {}),
        parentLink: { kind: "back", field: fieldDef.derivedFrom, ids: parentIds, perParent: q.skip + q.first },
      });
      const byParent = new Map<string, ResultObject[]>();
      for (const child of children) {
        // A bucket row's table is the interval's; its type is the aggregation.
        if (q.aggregation) child.__typename = fieldDef.type.target;
        const back = child.__back;
        for (const p of Array.isArray(back) ? back.map(String) : [String(back)]) {
          let list = byParent.get(p);
          if (!list) byParent.set(p, (list = []));
          list.push(child);
        }
      }
      for (const row of rows) {
        const list = byParent.get(String(row.__id)) ?? [];
        row[sel.key] = fieldDef.list ? list.slice(q.skip, q.skip + q.first) : (list[0] ?? null);
      }
      continue;
    }
    const refKey = `__ref_${sel.key}`;
    const ids = new Set<string>();
    for (const row of rows) {
      const ref = row[refKey];
      if (Array.isArray(ref)) for (const id of ref) ids.add(String(id));
      else if (ref !== null && ref !== undefined) ids.add(String(ref));
    }
    const children = ids.size === 0 ? [] : await fetchRows(db, layout, {
      tables: childTables, filter: q.filter, order: q.order, skip: 0, first: q.first, block: spec.block, selection: q.selection,
      parentLink: { kind: "ids", ids: [...ids] },
    });
    const byId = new Map(children.map((c) => [String(c.__id), c]));
    const rank = new Map(children.map((c, i) => [String(c.__id), i]));
    for (const row of rows) {
      const ref = row[refKey];
      if (Array.isArray(ref)) {
        const list = ref.map(String).filter((id) => byId.has(id)).sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
        row[sel.key] = list.slice(q.skip, q.skip + q.first).map((id) => byId.get(id));
      } else {
        row[sel.key] = ref === null || ref === undefined ? null : (byId.get(String(ref)) ?? null);
      }
    }
  }
}

/** Order rows merged from several tables: by the order value (numbers numerically), then id. */
function compareRows(order: EntityOrder | null): (a: ResultObject, b: ResultObject) => number {
  const sign = order?.direction === "desc" ? -1 : 1;
  return (a, b) => {
    const byOrder = order && order.field !== "id" ? compareValues(a.__order, b.__order) : 0;
    return sign * (byOrder !== 0 ? byOrder : compareValues(a.__id, b.__id));
  };
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = String(a);
  const sb = String(b);
  if (/^-?\d+$/.test(sa) && /^-?\d+$/.test(sb)) {
    const d = BigInt(sa) - BigInt(sb);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
