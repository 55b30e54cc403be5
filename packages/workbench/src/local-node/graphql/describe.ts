// Turns GraphQL field nodes into the store's database-free EntityQuery pieces: selections (with
// nested references), `where` filters, ordering and the skip/first range, with graph-node's checks.
import { GraphQLInterfaceType, GraphQLObjectType, Kind, getArgumentValues, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import type { EntityFilter, EntityOrder, FilterOp, FilterScalar, Selection } from "../store/index.js";
import type { FieldDef } from "../../subgraph-schema/index.js";
import type { ApiSchema } from "./apiSchema.js";
import { collectFields, mergedSelectionSet } from "./collectFields.js";

export { mergedSelectionSet };
import { QueryError, rangeError } from "./errors.js";

/** graph-node's defaults for GRAPH_GRAPHQL_MAX_FIRST and GRAPH_GRAPHQL_MAX_SKIP. */
export const MAX_FIRST = 1000;
export const MAX_SKIP = 4294967295;

export interface DescribeContext {
  api: ApiSchema;
  limits: { maxFirst: number; maxSkip: number };
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

export interface CollectionArgs {
  filter: EntityFilter | null;
  order: EntityOrder | null;
  skip: number;
  first: number;
}

/** Entity types and interfaces whose fields a selection on `typeName` may name. */
function relatedTypes(ctx: DescribeContext, typeName: string): string[] {
  const iface = ctx.api.subgraph.interfaces.get(typeName);
  if (iface) return [typeName, ...iface.implementedBy];
  return [typeName, ...(ctx.api.subgraph.entities.get(typeName)?.interfaces ?? [])];
}

function fieldDefOf(ctx: DescribeContext, typeName: string, field: string): { def: FieldDef; graphqlType: GraphQLObjectType | GraphQLInterfaceType } | null {
  for (const name of relatedTypes(ctx, typeName)) {
    const owner = ctx.api.subgraph.entities.get(name) ?? ctx.api.subgraph.interfaces.get(name);
    const def = owner?.fieldsByName.get(field);
    const graphqlType = ctx.api.schema.getType(name);
    if (def && (graphqlType instanceof GraphQLObjectType || graphqlType instanceof GraphQLInterfaceType)) return { def, graphqlType };
  }
  return null;
}

export function describeSelection(ctx: DescribeContext, typeName: string, selectionSet: SelectionSetNode): Selection[] {
  const related = new Set(relatedTypes(ctx, typeName));
  const fields = collectFields({ fragments: ctx.fragments, variables: ctx.variables, applies: (cond) => related.has(cond) }, selectionSet);
  const selection: Selection[] = [];
  for (const [key, nodes] of fields) {
    const first = nodes[0];
    if (!first) continue;
    const name = first.name.value;
    if (name === "__typename") {
      selection.push({ key, kind: "typename" });
      continue;
    }
    const found = fieldDefOf(ctx, typeName, name);
    if (!found) continue;
    const { def, graphqlType } = found;
    if (def.type.kind !== "reference") {
      selection.push({ key, kind: "field", field: name });
      continue;
    }
    const target = def.type.target;
    const childSelection = describeSelection(ctx, target, mergedSelectionSet(nodes));
    if (def.list) {
      const gqlField = graphqlType.getFields()[name];
      const args = gqlField ? getArgumentValues(gqlField, first, ctx.variables) : {};
      const range = def.type.targetIsAggregation ? aggregationArgs(ctx, target, args) : collectionArgs(ctx, target, args);
      selection.push({ key, kind: "child", field: name, query: { ...range, selection: childSelection } });
    } else {
      selection.push({ key, kind: "child", field: name, query: { filter: null, order: null, skip: 0, first: 1, selection: childSelection } });
    }
  }
  return selection;
}

/**
 * An aggregation's buckets under an entity: the interval's table, with the in-progress bucket for
 * `current: include`, ordered as the aggregation's own collection is (newest first) unless asked.
 */
export function aggregationArgs(ctx: DescribeContext, typeName: string, args: Record<string, unknown>): CollectionArgs & { aggregation: { table: string; current: boolean } } {
  const intervals = ctx.api.subgraph.aggregations.find((a) => a.name === typeName)?.intervals ?? [];
  if (!intervals.includes(args.interval as never)) throw new QueryError(`Aggregation \`${typeName}\` has no interval \`${String(args.interval)}\`; it has ${intervals.join(", ")}`);
  const range = collectionArgs(ctx, typeName, args);
  range.order ??= { field: "timestamp", direction: "desc" };
  return { ...range, aggregation: { table: `${typeName}_${String(args.interval)}`, current: args.current === "include" } };
}

/**
 * Whether graph-node sorts by a field: only a single built-in scalar. An enum, a reference or a list is
 * "not supported" (its store finds no value type for the field's GraphQL type; found by the parity run
 * of ourzora/nouns-builder, whose votes have an enum `support`).
 */
function sortable(def: FieldDef): boolean {
  return !def.list && def.type.kind === "scalar";
}

/** skip/first/orderBy/orderDirection/where of a collection field, checked as graph-node does. */
export function collectionArgs(ctx: DescribeContext, typeName: string, args: Record<string, unknown>): CollectionArgs {
  const first = typeof args.first === "number" ? args.first : 100;
  const skip = typeof args.skip === "number" ? args.skip : 0;
  const { maxFirst, maxSkip } = ctx.limits;
  // graph-node refuses `first: 0` too, with the same "between 0 and N" text (found by the parity suite).
  if (first < 1 || first > maxFirst) throw rangeError("first", maxFirst, first);
  if (skip < 0 || skip > maxSkip) throw rangeError("skip", maxSkip, skip);
  const direction = args.orderDirection === "desc" ? "desc" : "asc";
  let order: EntityOrder | null = null;
  if (typeof args.orderBy === "string" && args.orderBy.includes("__")) {
    // Child sorting: `field__childField` on a single (non-list) reference, as graph-node offers it.
    const [field = "", childField = ""] = args.orderBy.split("__");
    const parent = fieldDefOf(ctx, typeName, field)?.def;
    const target = parent?.type.kind === "reference" ? parent.type.target : null;
    const child = target ? fieldDefOf(ctx, target, childField)?.def : undefined;
    if (!parent || parent.list || !child || !sortable(child) || ctx.api.subgraph.interfaces.has(target ?? "")) {
      throw new QueryError(`Ordering by \`${args.orderBy}\` is not supported for type \`${typeName}\``);
    }
    order = { field, direction, childField };
  } else if (typeof args.orderBy === "string") {
    const found = fieldDefOf(ctx, typeName, args.orderBy);
    if (found && !sortable(found.def)) {
      throw new QueryError(`Ordering by \`${args.orderBy}\` is not supported for type \`${typeName}\``);
    }
    order = { field: args.orderBy, direction };
  }
  // Without orderBy graph-node uses its default order (id ascending) whatever orderDirection says.
  const filter = args.where && typeof args.where === "object" ? whereToFilter(ctx, typeName, args.where as Record<string, unknown>) : null;
  return { filter, order, skip, first };
}

const OPS: FilterOp[] = [
  "not_contains_nocase", "not_starts_with_nocase", "not_ends_with_nocase",
  "contains_nocase", "starts_with_nocase", "ends_with_nocase",
  "not_contains", "not_starts_with", "not_ends_with", "not_in",
  "contains", "starts_with", "ends_with",
  "not", "gte", "lte", "gt", "lt", "in",
];

/** A coerced `where` object -> EntityFilter. Keys were checked against `<T>_filter` by coercion. */
export function whereToFilter(ctx: DescribeContext, typeName: string, where: Record<string, unknown>): EntityFilter {
  if ("or" in where) {
    // graph-node rejects column filters beside `or` (keys listed as graphql_parser sorts them).
    const columns = Object.keys(where).filter((k) => k !== "or" && k !== "and" && k !== "_change_block").sort().map((k) => `'${k}'`);
    if (columns.length > 0) {
      const list = columns.join(", ");
      throw new QueryError(
        `Cannot mix column filters with 'or' operator at the same level. Found column filter(s) ${list} alongside 'or' operator.\n\nInstead of:\nwhere: { ${list}, or: [...] }\n\nUse:\nwhere: { or: [{ ${list}, ... }, { ${list}, ... }] }`,
      );
    }
  }
  const filters: EntityFilter[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === "and" || key === "or") {
      const list = Array.isArray(value) ? value : [];
      const parts = list.filter((v): v is Record<string, unknown> => v !== null && typeof v === "object").map((v) => whereToFilter(ctx, typeName, v));
      filters.push({ kind: key, filters: parts });
      continue;
    }
    if (key === "_change_block") {
      const gte = (value as { number_gte?: unknown } | null)?.number_gte;
      filters.push({ kind: "changeBlock", numberGte: typeof gte === "number" ? gte : 0 });
      continue;
    }
    if (key.endsWith("_") && fieldDefOf(ctx, typeName, key.slice(0, -1))) {
      const field = key.slice(0, -1);
      const def = fieldDefOf(ctx, typeName, field)?.def;
      if (def?.type.kind !== "reference" || value === null || typeof value !== "object") continue;
      filters.push({ kind: "child", field, filter: whereToFilter(ctx, def.type.target, value as Record<string, unknown>) });
      continue;
    }
    let field = key;
    let op: FilterOp = "eq";
    if (!fieldDefOf(ctx, typeName, key)) {
      const match = OPS.find((o) => key.endsWith(`_${o}`) && fieldDefOf(ctx, typeName, key.slice(0, -(o.length + 1))));
      if (!match) throw new QueryError(`Entity \`${typeName}\` has no attribute \`${key}\``);
      op = match;
      field = key.slice(0, -(match.length + 1));
    }
    filters.push({ kind: "compare", field, op, value: value as FilterScalar | FilterScalar[] });
  }
  return filters.length === 1 && filters[0] ? filters[0] : { kind: "and", filters };
}
