// The relational layout of a deployment's entities, in the spirit of graph-node's: one table per entity
// type in the deployment's schema (sgdN), snake_case names, `vid` primary key, `block$` for immutable
// entities and `block_range int4range` for mutable ones. Values travel as text and are cast in SQL so
// that PGlite and pg behave the same.
import { type AggregationDef, type AggregationInterval, type EntityTypeDef, type FieldDef, type FulltextDef, type ScalarKind, type SubgraphSchema, POI_ENTITY_TYPE, aggregationAsEntity, storageKind, storedFields } from "../../subgraph-schema/index.js";
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { StoreError } from "./errors.js";
import type { CopyPlan, CopyTable } from "./rowText.js";

/** The largest block number; `block_range @> BLOCK_MAX` selects current versions. */
export const BLOCK_MAX = 2147483647;

export interface ColumnLayout {
  field: FieldDef;
  /** Quoted column name. */
  column: string;
  /** Storage kind of the value (or of each list item). */
  kind: ScalarKind;
  list: boolean;
  /** The SQL type, e.g. `bytea`, `numeric[]`. */
  sqlType: string;
}

export interface TableLayout {
  entity: EntityTypeDef;
  /** `"sgd1"."approval_query"` */
  qualified: string;
  table: string;
  immutable: boolean;
  /** A `causality_region` column: file data sources write this type (graph-node's has_causality_region). */
  causalityRegion: boolean;
  columns: ColumnLayout[];
  columnsByField: Map<string, ColumnLayout>;
  id: ColumnLayout;
  /** `@fulltext` search fields over this table: a tsvector column each, by the search field's name. */
  fulltexts: Map<string, { def: FulltextDef; column: string }>;
  /** For an aggregation's table (`stats_hour`): the aggregation and the interval its rows cover. */
  aggregation?: { def: AggregationDef; interval: AggregationInterval };
}

export interface DeploymentLayout {
  schemaName: string;
  schema: SubgraphSchema;
  tables: Map<string, TableLayout>;
}

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const SQL_TYPES: Record<ScalarKind, string> = {
  ID: "text",
  String: "text",
  Bytes: "bytea",
  BigInt: "numeric",
  BigDecimal: "numeric",
  Int: "int4",
  Int8: "int8",
  Boolean: "boolean",
  // Microseconds since the epoch, as graph-node's Timestamp values; exact and driver-independent.
  Timestamp: "int8",
};

/** The key (and table type name) of an aggregation's table for one interval: `Stats_hour` (table `stats_hour`). */
export function aggregationTableKey(aggregation: string, interval: AggregationInterval): string {
  return `${aggregation}_${interval}`;
}

/** An aggregation's rows for one interval, stored like an immutable entity type's (graph-node does the same). */
function aggregationEntities(schema: SubgraphSchema): { entity: EntityTypeDef; aggregation: NonNullable<TableLayout["aggregation"]> }[] {
  return schema.aggregations.flatMap((def) =>
    def.intervals.map((interval) => ({
      entity: aggregationAsEntity(def, aggregationTableKey(def.name, interval)),
      aggregation: { def, interval },
    })),
  );
}

/** The table of graph-node's proof-of-indexing entity type. */
const POI_TABLE = "poi2$";
const scalarField = (name: string, scalar: ScalarKind): FieldDef => ({ name, type: { kind: "scalar", scalar }, list: false, nonNull: true, itemNonNull: false, derivedFrom: null });
const POI_FIELDS = [scalarField("id", "String"), scalarField("digest", "Bytes")];
const POI_ENTITY: EntityTypeDef = { name: POI_ENTITY_TYPE, immutable: false, timeseries: false, idKind: "String", fields: POI_FIELDS, fieldsByName: new Map(POI_FIELDS.map((f) => [f.name, f])), interfaces: [] };

export function buildLayout(schemaName: string, schema: SubgraphSchema, causalityRegionEntities: readonly string[] = []): DeploymentLayout {
  const tables = new Map<string, TableLayout>();
  const entries = [
    ...[...schema.entities.values()].map((entity) => ({ entity, aggregation: undefined })),
    ...aggregationEntities(schema),
    // Versioned like a mutable entity, so that reverts, pruning, grafting and time travel cover it.
    { entity: POI_ENTITY, aggregation: undefined },
  ];
  for (const { entity, aggregation } of entries) {
    const table = entity === POI_ENTITY ? POI_TABLE : snakeCase(entity.name);
    const columns = storedFields(entity).map((field): ColumnLayout => {
      const kind = storageKind(schema, field);
      const base = SQL_TYPES[kind];
      return { field, column: quoteIdent(snakeCase(field.name)), kind, list: field.list, sqlType: field.list ? `${base}[]` : base };
    });
    const columnsByField = new Map(columns.map((c) => [c.field.name, c]));
    const id = columnsByField.get("id");
    if (!id) throw new StoreError(`entity ${entity.name} has no id column`);
    tables.set(entity.name, {
      entity,
      qualified: `${quoteIdent(schemaName)}.${quoteIdent(table)}`,
      table,
      immutable: entity.immutable,
      causalityRegion: causalityRegionEntities.includes(entity.name),
      columns,
      columnsByField,
      id,
      fulltexts: new Map(schema.fulltexts.filter((f) => f.entity === entity.name).map((def) => [def.name, { def, column: quoteIdent(snakeCase(def.name)) }])),
      ...(aggregation ? { aggregation } : {}),
    });
  }
  return { schemaName, schema, tables };
}

/**
 * DDL for the deployment's schema, tables and the indexes writes need: the id (unique for immutable
 * entities) and BRIN indexes on the block columns (cheap to maintain; reverts scan by block).
 * Attribute indexes come separately (attributeIndexesSql), once the deployment has synced.
 */
export function createTablesSql(layout: DeploymentLayout): string {
  return [`create schema ${quoteIdent(layout.schemaName)};`, ...[...layout.tables.values()].map((t) => createTableSql(t))].join("\n");
}

/** The proof-of-indexing table for a deployment made before this store had one. */
export function createPoiTableSql(layout: DeploymentLayout): string {
  return createTableSql(layout.tables.get(POI_ENTITY_TYPE)!, { ifNotExists: true });
}

function createTableSql(t: TableLayout, { ifNotExists = false } = {}): string {
  const parts: string[] = [];
  // Text is compared bytewise (graph-node requires a C-collated database).
  const cols = t.columns.map((c) => `${c.column} ${c.sqlType}${c.kind === "String" || c.kind === "ID" ? ' collate "C"' : ""}${c.field.nonNull ? " not null" : ""}`);
  const block = `${t.immutable ? `"block$" int4 not null` : `block_range int4range not null`}${t.causalityRegion ? ", causality_region int4 not null default 0" : ""}`;
  // graph-node computes a search field's tsvector from the included String fields when it writes a row;
  // a generated column does the same here, on every write path. The GIN index is graph-node's too.
  for (const { def, column } of t.fulltexts.values()) {
    const vectors = def.fields.map((f) => `to_tsvector('${def.config}'::regconfig, coalesce(${t.columnsByField.get(f)?.column ?? quoteIdent(snakeCase(f))}, ''))`);
    cols.push(`${column} tsvector generated always as (${vectors.join(" || ")}) stored`);
  }
  parts.push(`create table ${ifNotExists ? "if not exists " : ""}${t.qualified} (vid bigserial primary key, ${cols.join(", ")}, ${block});`);
  for (const { column } of t.fulltexts.values()) parts.push(`create index if not exists ${quoteIdent(`${t.table}_${column.replace(/"/g, "")}`)} on ${t.qualified} using gin (${column});`);
  if (t.immutable) {
    parts.push(indexSql(t, "id", `(${t.id.column})`, "unique"));
    parts.push(indexSql(t, "block", `using brin ("block$")`));
  } else {
    parts.push(indexSql(t, "id", `(${t.id.column}, lower(block_range))`));
    parts.push(indexSql(t, "block", `using brin (lower(block_range), coalesce(upper(block_range), ${BLOCK_MAX}))`));
  }
  return parts.join("\n");
}

/**
 * One btree per scalar attribute, as graph-node creates them, with the id appended so that a filter on
 * the attribute comes out in the default id order (`where: {owner}` + `first` reads only what it returns).
 * Idempotent. graph-node can postpone these until a deployment has synced; this store always does, so
 * that the historical sync only maintains the id index.
 */
export function attributeIndexesSql(layout: DeploymentLayout): string {
  const parts: string[] = [];
  for (const t of layout.tables.values()) {
    // The proof-of-indexing digests are read by id only.
    if (t.entity.name === POI_ENTITY_TYPE) continue;
    t.columns.forEach((c, i) => {
      if (c === t.id || c.list) return;
      parts.push(indexSql(t, `attr_${i}`, `(${indexExpr(c)}, ${t.id.column})`));
    });
  }
  return parts.join("\n");
}

function indexSql(t: TableLayout, suffix: string, expr: string, kind: "unique" | "" = ""): string {
  return `create ${kind ? "unique " : ""}index if not exists ${quoteIdent(`${t.table}_${suffix}`)} on ${t.qualified} ${expr};`;
}

/**
 * The indexed expression of an attribute: long text and bytes are indexed by a prefix as graph-node
 * does, so that big values never exceed btree limits. Equality filters repeat the prefix to use it.
 */
export function indexExpr(c: ColumnLayout): string {
  if (c.kind === "String" || c.kind === "ID") return `left(${c.column}, 256)`;
  if (c.kind === "Bytes") return `substring(${c.column}, 1, 64)`;
  return c.column;
}

/** A SQL expression reading a column JSON-ready: Bytes as 0x hex, big numbers as strings. */
export function selectExpr(c: ColumnLayout, alias = "t"): string {
  const col = `${alias}.${c.column}`;
  if (c.list) {
    if (c.kind === "Bytes") return `case when ${col} is null then null else array(select '0x' || encode(x, 'hex') from unnest(${col}) as x) end`;
    if (c.kind === "BigInt" || c.kind === "BigDecimal" || c.kind === "Int8" || c.kind === "Timestamp") return `${col}::text[]`;
    return col;
  }
  if (c.kind === "Bytes") return `'0x' || encode(${col}, 'hex')`;
  if (c.kind === "BigInt" || c.kind === "BigDecimal" || c.kind === "Int8" || c.kind === "Timestamp") return `${col}::text`;
  return col;
}

/** A value (from selectExpr) back to a StoreValue, for getEntity. */
export function toStoreValue(c: ColumnLayout, raw: unknown): StoreValue | null {
  if (raw === null || raw === undefined) return null;
  if (c.list) {
    const items = (raw as unknown[]).map((item) => scalarToStoreValue(c.kind, item));
    return { kind: "Array", value: items };
  }
  return scalarToStoreValue(c.kind, raw);
}

function scalarToStoreValue(kind: ScalarKind, raw: unknown): StoreValue {
  if (raw === null || raw === undefined) return { kind: "Null" };
  switch (kind) {
    case "ID":
    case "String":
      return { kind: "String", value: String(raw) };
    case "Bytes":
      return { kind: "Bytes", value: Uint8Array.from(Buffer.from(String(raw).slice(2), "hex")) };
    case "BigInt":
      return { kind: "BigInt", value: BigInt(String(raw)) };
    case "BigDecimal":
      return { kind: "BigDecimal", value: String(raw) };
    case "Int":
      return { kind: "Int", value: Number(raw) };
    case "Int8":
      return { kind: "Int8", value: BigInt(String(raw)) };
    case "Timestamp":
      return { kind: "Timestamp", value: BigInt(String(raw)) };
    case "Boolean":
      return { kind: "Bool", value: raw === true || raw === "t" || raw === "true" };
  }
}

/** The table's COPY columns (rowText.ts), in the order of `columns`: once per table. */
export function copyTableOf(t: TableLayout): CopyTable {
  let copy = copyTables.get(t);
  if (!copy) {
    copy = { columns: t.columns.map((c) => ({ field: c.field.name, kind: c.kind, list: c.list })), idField: t.id.field.name, idKind: t.id.kind, region: t.causalityRegion };
    copyTables.set(t, copy);
  }
  return copy;
}

const copyTables = new WeakMap<TableLayout, CopyTable>();

/** What the handlers' thread needs to write the deployment's immutable rows itself. */
export function copyPlanOf(layout: DeploymentLayout): CopyPlan {
  const plan: CopyPlan = {};
  for (const [entityType, t] of layout.tables) if (t.immutable && !t.aggregation) plan[entityType] = copyTableOf(t);
  return plan;
}

/** Read an entity row (selected with selectExpr per column) into EntityData, leaving out nulls. */
export function rowToEntity(t: TableLayout, row: Record<string, unknown>): EntityData {
  const data: EntityData = new Map();
  for (const c of t.columns) {
    const v = toStoreValue(c, row[c.field.name]);
    if (v !== null) data.set(c.field.name, v);
  }
  return data;
}

/** `select` list reading every stored column under its field name. */
export function selectAllSql(t: TableLayout, alias = "t"): string {
  return t.columns.map((c) => `${selectExpr(c, alias)} as ${quoteIdent(c.field.name)}`).join(", ");
}

/** The SQL condition "visible at block $n" for a table. */
export function visibleAt(t: TableLayout, blockParam: string, alias = "t"): string {
  return t.immutable ? `${alias}."block$" <= ${blockParam}` : `${alias}.block_range @> ${blockParam}::int4`;
}

/** " and <alias>.causality_region = 0" where the table has regions: what the chain's handlers may read. */
export function onchainOnly(t: TableLayout, alias = "t"): string {
  return t.causalityRegion ? ` and ${alias}.causality_region = 0` : "";
}

/** A text param cast to the column's SQL type. */
export function castParam(c: ColumnLayout, param: string): string {
  return `${param}::${c.sqlType}`;
}
