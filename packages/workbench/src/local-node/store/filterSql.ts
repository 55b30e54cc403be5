// EntityFilter -> a SQL condition on one table. Values are bound as parameters and cast to the
// column's type; equality on text/bytes repeats the prefix expression so the attribute index applies.
import { StoreError } from "./errors.js";
import { visibleAt, type ColumnLayout, type DeploymentLayout, type TableLayout } from "./layout.js";
import type { EntityFilter, FilterOp, FilterScalar } from "./entityQuery.js";

export type Params = unknown[];

export function filterSql(layout: DeploymentLayout, t: TableLayout, alias: string, filter: EntityFilter, params: Params, block: number): string {
  switch (filter.kind) {
    case "and":
      return filter.filters.length === 0 ? "true" : `(${filter.filters.map((f) => filterSql(layout, t, alias, f, params, block)).join(" and ")})`;
    case "or":
      return filter.filters.length === 0 ? "false" : `(${filter.filters.map((f) => filterSql(layout, t, alias, f, params, block)).join(" or ")})`;
    case "changeBlock":
      params.push(filter.numberGte);
      return t.immutable ? `${alias}."block$" >= $${params.length}` : `lower(${alias}.block_range) >= $${params.length}`;
    case "compare":
      return compareSql(column(t, filter.field), alias, filter.op, filter.value, params);
    case "child":
      return childSql(layout, t, alias, filter.field, filter.filter, params, block);
    case "fulltext": {
      const search = t.fulltexts.get(filter.name);
      if (!search) throw new StoreError(`Entity \`${t.entity.name}\` has no fulltext field \`${filter.name}\``);
      params.push(filter.text);
      // The database's default text search configuration parses the query, as graph-node's to_tsquery($1).
      return `${alias}.${search.column} @@ to_tsquery($${params.length})`;
    }
  }
}

function column(t: TableLayout, field: string): ColumnLayout {
  const c = t.columnsByField.get(field);
  if (!c) throw new StoreError(`Entity \`${t.entity.name}\` has no attribute \`${field}\``, { details: { field } });
  return c;
}

/** A GraphQL input value as the text Postgres parses for the column's base type. */
function scalarParam(c: ColumnLayout, v: FilterScalar): string | null {
  if (v === null) return null;
  if (c.kind === "Bytes") return `\\x${String(v).replace(/^0x/i, "")}`;
  if (c.kind === "Boolean") return v === true || v === "true" ? "t" : "f";
  return String(v);
}

function arrayLiteral(c: ColumnLayout, values: FilterScalar[]): string {
  return `{${values.map((v) => {
    const text = scalarParam(c, v);
    return text === null ? "NULL" : `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  }).join(",")}}`;
}

function compareSql(c: ColumnLayout, alias: string, op: FilterOp, value: FilterScalar | FilterScalar[], params: Params): string {
  const col = `${alias}.${c.column}`;
  const base = c.sqlType.replace("[]", "");
  const bind = (v: unknown, type: string): string => {
    // Bound as text and cast in SQL: PGlite serializes by the inferred type, pg sends text anyway.
    params.push(v);
    return `$${params.length}::text::${type}`;
  };
  if (c.list) {
    const list = Array.isArray(value) ? value : [value];
    const arr = (): string => bind(value === null ? null : arrayLiteral(c, list), c.sqlType);
    switch (op) {
      case "eq": return value === null ? `${col} is null` : `${col} = ${arr()}`;
      case "not": return value === null ? `${col} is not null` : `${col} <> ${arr()}`;
      case "contains": return `${col} @> ${arr()}`;
      case "not_contains": return `not (${col} @> ${arr()})`;
      case "contains_nocase":
      case "not_contains_nocase": {
        const p = bind(arrayLiteral(c, list), c.sqlType);
        const cond = `not exists (select 1 from unnest(${p}) v where not exists (select 1 from unnest(${col}) x where lower(x::text) = lower(v::text)))`;
        return op === "contains_nocase" ? cond : `not ${cond}`;
      }
      default: throw new StoreError(`Filter not supported by value \`${JSON.stringify(value)}\`: \`${op}\``);
    }
  }
  // The id has a plain btree; other text/bytes attributes are indexed by a prefix (layout.indexExpr).
  const prefixed = (c.kind === "String" || c.kind === "ID" || c.kind === "Bytes") && c.field.name !== "id";
  if (op === "in" || op === "not_in") {
    const list = Array.isArray(value) ? value : [value];
    const p = bind(arrayLiteral(c, list), `${base}[]`);
    // Short values: the prefix comparison is exact and uses the attribute index.
    const lhs = prefixed && list.every((v) => isShort(c, scalarParam(c, v))) ? prefixExpr(c, col) : col;
    return op === "in" ? `${lhs} = any(${p})` : `not (${lhs} = any(${p}))`;
  }
  if (Array.isArray(value)) throw new StoreError(`Filter not supported by value \`${JSON.stringify(value)}\`: \`${op}\``);
  const text = scalarParam(c, value);
  if (text === null) {
    if (op === "eq") return `${col} is null`;
    if (op === "not") return `${col} is not null`;
    return "false";
  }
  const isText = c.kind === "String" || c.kind === "ID";
  const cmp = (sqlOp: string): string => `${col} ${sqlOp} ${bind(text, base)}`;
  switch (op) {
    case "eq": {
      if (!prefixed) return `${col} = ${bind(text, base)}`;
      // A value shorter than the indexed prefix equals the column exactly when the prefix does, so the
      // prefix condition alone is exact (and the planner estimates it from the index's statistics).
      if (isShort(c, text)) return `${prefixExpr(c, col)} = ${bind(text, base)}`;
      const p = bind(text, base);
      return `${prefixExpr(c, col)} = ${prefixExpr(c, p)} and ${col} = ${p}`;
    }
    case "not": return cmp("<>");
    case "gt": return cmp(">");
    case "lt": return cmp("<");
    case "gte": return cmp(">=");
    case "lte": return cmp("<=");
    default: break;
  }
  if (c.kind === "Bytes") {
    const p = bind(text, "bytea");
    if (op === "contains") return `position(${p} in ${col}) > 0`;
    if (op === "not_contains") return `position(${p} in ${col}) = 0`;
    throw new StoreError(`Filter not supported by value \`${value}\`: \`${op}\``);
  }
  if (!isText) throw new StoreError(`Filter not supported by value \`${value}\`: \`${op}\``);
  const nocase = op.endsWith("_nocase");
  const negate = op.startsWith("not_");
  const kind = op.replace(/^not_/, "").replace(/_nocase$/, "");
  const p = bind(text, "text");
  const lhs = nocase ? `lower(${col})` : col;
  const rhs = nocase ? `lower(${p})` : p;
  let cond: string;
  if (kind === "contains") cond = `strpos(${lhs}, ${rhs}) > 0`;
  else if (kind === "starts_with") cond = `left(${lhs}, length(${rhs})) = ${rhs}`;
  else if (kind === "ends_with") cond = `right(${lhs}, length(${rhs})) = ${rhs}`;
  else throw new StoreError(`Filter not supported by value \`${value}\`: \`${op}\``);
  return negate ? `not (${cond})` : cond;
}

/** Whether a value (as scalarParam renders it) is shorter than its column's indexed prefix. */
function isShort(c: ColumnLayout, text: string | null): boolean {
  if (text === null) return false;
  return c.kind === "Bytes" ? (text.length - 2) / 2 < 64 : [...text].length < 256;
}

/** The same prefix expression as the attribute index (layout.indexExpr) over any SQL expression. */
function prefixExpr(c: ColumnLayout, expr: string): string {
  return c.kind === "Bytes" ? `substring(${expr}, 1, 64)` : `left(${expr}, 256)`;
}

/** `field_: {...}`: a referenced (or, for @derivedFrom, referencing) entity matches the filter. */
function childSql(layout: DeploymentLayout, t: TableLayout, alias: string, field: string, filter: EntityFilter, params: Params, block: number): string {
  const def = t.entity.fieldsByName.get(field);
  if (!def || def.type.kind !== "reference") throw new StoreError(`Entity \`${t.entity.name}\` has no attribute \`${field}\``, { details: { field } });
  const target = def.type.target;
  const iface = layout.schema.interfaces.get(target);
  const childTables = iface ? iface.implementedBy.map((n) => layout.tables.get(n)) : [layout.tables.get(target)];
  const child = `c${params.length}`;
  params.push(block);
  const blockParam = `$${params.length}`;
  const parts = childTables.map((ct) => {
    if (!ct) throw new StoreError(`unknown entity type ${target}`);
    let link: string;
    if (def.derivedFrom !== null) {
      const back = column(ct, def.derivedFrom);
      link = back.list ? `${alias}.${t.id.column} = any(${child}.${back.column})` : `${child}.${back.column} = ${alias}.${t.id.column}`;
    } else {
      const c = column(t, field);
      link = c.list ? `${child}.${ct.id.column} = any(${alias}.${c.column})` : `${child}.${ct.id.column} = ${alias}.${c.column}`;
    }
    const inner = filterSql(layout, ct, child, filter, params, block);
    return `exists (select 1 from ${ct.qualified} ${child} where ${link} and ${visibleAt(ct, blockParam, child)} and ${inner})`;
  });
  return parts.length === 1 ? (parts[0] ?? "false") : `(${parts.join(" or ")})`;
}
