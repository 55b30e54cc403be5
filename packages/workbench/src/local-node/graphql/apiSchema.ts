// The query API graph-node generates from a subgraph schema (graph/src/schema/api.rs): per entity type
// and interface a singular and a collection field, `<T>_filter`, `<T>_orderBy`, plus `_meta`,
// Block_height, BlockChangedFilter, OrderDirection, _SubgraphErrorPolicy_ and the custom scalars; `_logs`
// with its types.
import { buildSchema, GraphQLEnumType, GraphQLScalarType, Kind, type GraphQLSchema, type ValueNode } from "graphql";
import { aggregationAsEntity, fieldTypeText, type FieldDef, type SubgraphSchema } from "../../subgraph-schema/index.js";
import { queryFieldNames } from "./naming.js";
import { LOGS_FIELD, LOGS_QUERY_FIELD_SDL, LOGS_TYPES_SDL } from "./logsField.js";

export interface ApiSchema {
  schema: GraphQLSchema;
  subgraph: SubgraphSchema;
  /** Query field name -> what it reads. */
  rootFields: Map<string, RootField>;
}

export type RootField =
  | { kind: "single"; typeName: string }
  | { kind: "collection"; typeName: string }
  /** A `@fulltext` search field over `typeName`. */
  | { kind: "fulltext"; typeName: string; name: string }
  | { kind: "meta" }
  /** `_logs`: the deployment's log entries (logsField.ts). */
  | { kind: "logs" }
  /** An `@aggregation`'s collection (`stats_collection(interval: hour, ...)`). */
  | { kind: "aggregation"; typeName: string };

const STRING_OPS = [
  "", "not", "gt", "lt", "gte", "lte", "in", "not_in",
  "contains", "contains_nocase", "not_contains", "not_contains_nocase",
  "starts_with", "starts_with_nocase", "not_starts_with", "not_starts_with_nocase",
  "ends_with", "ends_with_nocase", "not_ends_with", "not_ends_with_nocase",
];
const ORDERED_OPS = ["", "not", "gt", "lt", "gte", "lte", "in", "not_in"];

function scalarOps(scalar: string): string[] {
  switch (scalar) {
    case "Boolean": return ["", "not", "in", "not_in"];
    case "Bytes": return [...ORDERED_OPS, "contains", "not_contains"];
    case "String": return STRING_OPS;
    case "ID": case "BigInt": case "BigDecimal": case "Int": case "Int8": case "Timestamp": return ORDERED_OPS;
    default: return ["", "not"];
  }
}

const BLOCK_ARG = `"""The block at which the query should be executed. Can either be a \`{ hash: Bytes }\` value containing a block hash, a \`{ number: Int }\` containing the block number, or a \`{ number_gte: Int }\` containing the minimum block number. In the case of \`number_gte\`, the query will be executed on the latest block only if the subgraph has progressed to or past the minimum block number. Defaults to the latest block when omitted."""
    block: Block_height`;
const ERROR_ARG = `"""Set to \`allow\` to receive data even if the subgraph has skipped over errors while syncing."""
    subgraphError: _SubgraphErrorPolicy_! = deny`;

const BASE_SDL = `
scalar BigDecimal
scalar Bytes
scalar BigInt
"8 bytes signed integer"
scalar Int8
"A string representation of microseconds UNIX timestamp (16 digits)"
scalar Timestamp
"The type for the top-level _meta field"
type _Meta_ {
  """Information about a specific subgraph block. The hash of the block will be null if the _meta field has a block constraint that asks for a block number. It will be filled if the _meta field has no block constraint and therefore asks for the latest  block"""
  block: _Block_!
  "The deployment ID"
  deployment: String!
  "If \`true\`, the subgraph encountered indexing errors at some past block"
  hasIndexingErrors: Boolean!
}
input BlockChangedFilter { number_gte: Int! }
type _Block_ {
  "The hash of the block"
  hash: Bytes
  "The block number"
  number: Int!
  "Integer representation of the timestamp stored in blocks for the chain"
  timestamp: Int
  "The hash of the parent block"
  parentHash: Bytes
}
enum _SubgraphErrorPolicy_ {
  "Data will be returned even if the subgraph has indexing errors"
  allow
  "If the subgraph has indexing errors, data will be omitted. The default."
  deny
}
input Block_height {
  "Value containing a block hash"
  hash: Bytes
  "Value containing a block number"
  number: Int
  """Value containing the minimum block number. In the case of \`number_gte\`, the query will be executed on the latest block only if the subgraph has progressed to or past the minimum block number. Defaults to the latest block when omitted."""
  number_gte: Int
}
"Defines the order direction, either ascending or descending"
enum OrderDirection { asc desc }
`;

export function buildApiSchema(subgraph: SubgraphSchema): ApiSchema {
  const parts: string[] = [BASE_SDL, LOGS_TYPES_SDL];
  const rootFields = new Map<string, RootField>();
  const queryFields: string[] = [];

  const fieldSdl = (f: FieldDef): string => {
    if (f.type.kind === "reference" && f.list) {
      const t = f.type.target;
      // An aggregation's buckets: graph-node gives the field the aggregation collection's arguments.
      if (f.type.targetIsAggregation) return `  ${f.name}(skip: Int = 0, first: Int = 100, interval: Aggregation_interval!, orderBy: ${t}_orderBy, orderDirection: OrderDirection, current: Aggregation_current, where: ${t}_filter): ${fieldTypeText(f)}`;
      return `  ${f.name}(skip: Int = 0, first: Int = 100, orderBy: ${t}_orderBy, orderDirection: OrderDirection, where: ${t}_filter): ${fieldTypeText(f)}`;
    }
    return `  ${f.name}: ${fieldTypeText(f)}`;
  };

  for (const e of subgraph.enums.values()) parts.push(`enum ${e.name} { ${e.values.join(" ")} }`);

  const owners = [
    ...[...subgraph.interfaces.values()].map((i) => ({ name: i.name, fields: i.fields, sdl: `interface ${i.name}` })),
    ...[...subgraph.entities.values()].map((e) => ({
      name: e.name,
      fields: e.fields,
      sdl: `type ${e.name}${e.interfaces.length > 0 ? ` implements ${e.interfaces.join(" & ")}` : ""}`,
    })),
  ];
  for (const owner of owners) {
    parts.push(`${owner.sdl} {\n${owner.fields.map(fieldSdl).join("\n")}\n}`);
    parts.push(filterSdl(subgraph, owner.name, owner.fields));
    parts.push(orderBySdl(subgraph, owner.name, owner.fields));
    const { singular, plural } = queryFieldNames(owner.name);
    rootFields.set(singular, { kind: "single", typeName: owner.name });
    rootFields.set(plural, { kind: "collection", typeName: owner.name });
    queryFields.push(`  ${singular}(\n    id: ID!\n    ${BLOCK_ARG}\n    ${ERROR_ARG}\n  ): ${owner.name}`);
    queryFields.push(
      `  ${plural}(\n    skip: Int = 0\n    first: Int = 100\n    orderBy: ${owner.name}_orderBy\n    orderDirection: OrderDirection\n    where: ${owner.name}_filter\n    ${BLOCK_ARG}\n    ${ERROR_ARG}\n  ): [${owner.name}!]!`,
    );
  }
  // graph-node's search fields: text, first, skip, block, where and subgraphError; no orderBy.
  for (const search of subgraph.fulltexts) {
    rootFields.set(search.name, { kind: "fulltext", typeName: search.entity, name: search.name });
    queryFields.push(`  ${search.name}(\n    text: String!\n    first: Int = 100\n    skip: Int = 0\n    ${BLOCK_ARG}\n    where: ${search.entity}_filter\n    ${ERROR_ARG}\n  ): [${search.entity}!]!`);
  }
  // Aggregations: graph-node's collection with `interval` and `current`, filters on the non-aggregate
  // fields only (numbers and timestamps with gt/gte/lt/lte/in), no singular field.
  if (subgraph.aggregations.length > 0) parts.push(`enum Aggregation_interval { hour day }\nenum Aggregation_current { exclude include }`);
  for (const agg of subgraph.aggregations) {
    const aggregated = new Set(agg.aggregates.map((a) => a.field.name));
    parts.push(`type ${agg.name} {\n${agg.fields.map(fieldSdl).join("\n")}\n}`);
    parts.push(aggregationFilterSdl(subgraph, agg.name, agg.fields.filter((f) => !aggregated.has(f.name))));
    parts.push(`enum ${agg.name}_orderBy {\n  ${agg.fields.map((f) => f.name).join("\n  ")}\n}`);
    const { plural } = queryFieldNames(agg.name);
    rootFields.set(plural, { kind: "aggregation", typeName: agg.name });
    queryFields.push(
      `  "Collection of aggregated \`${agg.name}\` values"\n  ${plural}(\n    skip: Int = 0\n    first: Int = 100\n    interval: Aggregation_interval!\n    orderBy: ${agg.name}_orderBy\n    orderDirection: OrderDirection\n    current: Aggregation_current\n    where: ${agg.name}_filter\n    ${BLOCK_ARG}\n    ${ERROR_ARG}\n  ): [${agg.name}!]!`,
    );
  }
  queryFields.push(`  "Access to subgraph metadata"\n  _meta(block: Block_height): _Meta_`);
  rootFields.set("_meta", { kind: "meta" });
  queryFields.push(LOGS_QUERY_FIELD_SDL);
  rootFields.set(LOGS_FIELD, { kind: "logs" });
  parts.push(`type Query {\n${queryFields.join("\n")}\n}`);

  const schema = buildSchema(parts.join("\n\n"));
  installScalars(schema);
  // `_logs` answers slog's level names (`WARN` among them), as graph-node does; graphql-js, which answers
  // a query with introspection beside `_logs`, would refuse a name the enum lacks.
  const levels = schema.getType("LogLevel");
  if (levels instanceof GraphQLEnumType) Object.assign(levels, { serialize: (value: unknown) => value });
  // The query side reads an aggregation like an entity type of that name (its rows' fields).
  const entities = new Map(subgraph.entities);
  for (const agg of subgraph.aggregations) entities.set(agg.name, aggregationAsEntity(agg));
  return { schema, subgraph: { ...subgraph, entities }, rootFields };
}

function aggregationFilterSdl(subgraph: SubgraphSchema, typeName: string, fields: FieldDef[]): string {
  const inputs: string[] = [];
  for (const f of fields) {
    const scalar = f.type.kind === "reference" ? referenceFilterScalar(subgraph, f.type.target) : f.type.kind === "enum" ? f.type.enum : f.type.scalar;
    const ordered = f.type.kind === "scalar" && ["BigInt", "BigDecimal", "Int", "Int8", "Timestamp"].includes(f.type.scalar);
    for (const op of ordered ? ["", "gt", "lt", "gte", "lte", "in"] : [""]) inputs.push(`  ${op === "" ? f.name : `${f.name}_${op}`}: ${op === "in" ? `[${scalar}!]` : scalar}`);
  }
  return filterTypeSdl(typeName, inputs);
}

function filterSdl(subgraph: SubgraphSchema, typeName: string, fields: FieldDef[]): string {
  const inputs: string[] = [];
  const add = (field: string, op: string, type: string): void => {
    inputs.push(`  ${op === "" ? field : `${field}_${op}`}: ${type}`);
  };
  for (const f of fields) {
    const t = f.type;
    if (f.list) {
      if (t.kind === "reference") {
        if (f.derivedFrom === null) {
          const idScalar = referenceFilterScalar(subgraph, t.target);
          const ops = idScalar === "String" && idKindOf(subgraph, t.target) === "String" ? ["", "not", "contains", "contains_nocase", "not_contains", "not_contains_nocase"] : ["", "not", "contains", "not_contains"];
          for (const op of ops) add(f.name, op, `[${idScalar}!]`);
        }
        add(`${f.name}_`, "", `${t.target}_filter`);
      } else {
        const base = t.kind === "scalar" ? t.scalar : t.enum;
        const ops = base === "String" ? ["", "not", "contains", "contains_nocase", "not_contains", "not_contains_nocase"] : ["", "not", "contains", "not_contains"];
        for (const op of ops) add(f.name, op, `[${base}!]`);
      }
      continue;
    }
    if (t.kind === "reference") {
      if (f.derivedFrom === null) {
        const idScalar = referenceFilterScalar(subgraph, t.target);
        for (const op of scalarOps(idScalar)) add(f.name, op, op === "in" || op === "not_in" ? `[${idScalar}!]` : idScalar);
      }
      add(`${f.name}_`, "", `${t.target}_filter`);
    } else if (t.kind === "enum") {
      for (const op of ["", "not", "in", "not_in"]) add(f.name, op, op.endsWith("in") ? `[${t.enum}!]` : t.enum);
    } else {
      for (const op of scalarOps(t.scalar)) add(f.name, op, op === "in" || op === "not_in" ? `[${t.scalar}!]` : t.scalar);
    }
  }
  return filterTypeSdl(typeName, inputs);
}

function idKindOf(subgraph: SubgraphSchema, target: string): string {
  const name = subgraph.interfaces.get(target)?.implementedBy[0] ?? target;
  return subgraph.entities.get(name)?.idKind ?? "String";
}

/** References are filtered by id strings (Int for Int8 ids), as graph-node's id_type_as_scalar. */
function referenceFilterScalar(subgraph: SubgraphSchema, target: string): string {
  return idKindOf(subgraph, target) === "Int8" ? "Int" : "String";
}

function orderBySdl(subgraph: SubgraphSchema, typeName: string, fields: FieldDef[]): string {
  const values: string[] = [];
  for (const f of fields) {
    values.push(f.name);
    // Child sorting values (`field__child`) for single references, as graph-node lists them.
    if (f.type.kind === "reference" && !f.list) {
      const target = subgraph.entities.get(f.type.target) ?? subgraph.interfaces.get(f.type.target);
      for (const c of target?.fields ?? []) {
        if (!c.list && c.type.kind !== "reference") values.push(`${f.name}__${c.name}`);
      }
    }
  }
  return `enum ${typeName}_orderBy {\n  ${values.join("\n  ")}\n}`;
}

/** Numeric-like scalars accept strings and ints; everything is passed on as a string. */
function installScalars(schema: GraphQLSchema): void {
  const numeric = (name: string, pattern: RegExp) => ({
    parseValue(value: unknown): string {
      if ((typeof value === "string" && pattern.test(value)) || (typeof value === "number" && Number.isInteger(value))) return String(value);
      throw new TypeError(`${name} cannot represent ${JSON.stringify(value)}`);
    },
    parseLiteral(node: ValueNode): string {
      if ((node.kind === Kind.STRING && pattern.test(node.value)) || node.kind === Kind.INT) return node.value;
      if (node.kind === Kind.FLOAT && name === "BigDecimal") return node.value;
      throw new TypeError(`${name} cannot represent this literal`);
    },
  });
  const bytes = {
    parseValue(value: unknown): string {
      if (typeof value === "string" && /^(0x)?([0-9a-fA-F]{2})*$/.test(value)) return `0x${value.replace(/^0x/, "").toLowerCase()}`;
      throw new TypeError(`Bytes cannot represent ${JSON.stringify(value)}`);
    },
    parseLiteral(node: ValueNode): string {
      if (node.kind === Kind.STRING) return bytes.parseValue(node.value);
      throw new TypeError("Bytes cannot represent this literal");
    },
  };
  const impls: Record<string, { parseValue(v: unknown): string; parseLiteral(n: ValueNode): string }> = {
    BigInt: numeric("BigInt", /^-?\d+$/),
    Int8: numeric("Int8", /^-?\d+$/),
    Timestamp: numeric("Timestamp", /^-?\d+$/),
    BigDecimal: numeric("BigDecimal", /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/),
    Bytes: bytes,
  };
  for (const [name, impl] of Object.entries(impls)) {
    const type = schema.getType(name);
    if (!(type instanceof GraphQLScalarType)) continue;
    // graphql-js reads these at run time; buildSchema gives identity functions we replace here.
    Object.assign(type, { parseValue: impl.parseValue, parseLiteral: impl.parseLiteral, serialize: (v: unknown) => v });
  }
}

/** `<T>_filter` with its field inputs and the `_change_block`, `and` and `or` every filter type has. */
function filterTypeSdl(typeName: string, inputs: string[]): string {
  const all = [...inputs, `  "Filter for the block changed event."\n  _change_block: BlockChangedFilter`, `  and: [${typeName}_filter]`, `  or: [${typeName}_filter]`];
  return `input ${typeName}_filter {\n${all.join("\n")}\n}`;
}
