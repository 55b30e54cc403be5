// `@aggregation` types (graph-node's aggregations over a timeseries): which timeseries they read, at
// which intervals, their dimensions (fields without `@aggregate`, grouped by) and their aggregates
// (`@aggregate(fn, arg, cumulative)`). Checked with graph-node's rules and messages.
import { Kind, type ConstDirectiveNode, type ObjectTypeDefinitionNode } from "graphql/language/index.js";
import { SchemaError } from "./errors.js";
import { aggregateArgColumns } from "./aggregateExpression.js";
import { baseTypeName, fieldTypeText, type EntityTypeDef, type FieldDef, type ScalarKind } from "./types.js";

export type AggregationInterval = "hour" | "day";
export type AggregateFn = "sum" | "count" | "min" | "max" | "first" | "last";

/** Seconds per interval, in graph-node's order (smallest first). */
export const INTERVAL_SECONDS: Record<AggregationInterval, number> = { hour: 3_600, day: 86_400 };

export interface AggregateDef {
  field: FieldDef;
  fn: AggregateFn;
  /** A source field or an SQL expression over source fields; null for `count`. */
  arg: string | null;
  cumulative: boolean;
}

export interface AggregationDef {
  name: string;
  /** The timeseries type aggregated. */
  source: string;
  intervals: AggregationInterval[];
  /** Every field, in declaration order (`id`, `timestamp`, dimensions and aggregates). */
  fields: FieldDef[];
  dimensions: FieldDef[];
  aggregates: AggregateDef[];
}

const FNS: readonly AggregateFn[] = ["sum", "count", "min", "max", "first", "last"];
const NUMERIC: readonly ScalarKind[] = ["Int", "Int8", "BigInt", "BigDecimal"];

function fail(message: string, type: string): never {
  throw new SchemaError(message, { details: { type } });
}

function stringArg(directive: ConstDirectiveNode, name: string): { value: string } | "missing" | "invalid" {
  const arg = directive.arguments?.find((a) => a.name.value === name)?.value;
  if (!arg) return "missing";
  return arg.kind === Kind.STRING || arg.kind === Kind.ENUM ? { value: arg.value } : "invalid";
}

/** Reads one `@aggregation` type; `fields` are its fields as the schema reader parsed them. */
export function readAggregation(node: ObjectTypeDefinitionNode, fields: FieldDef[], entities: Map<string, EntityTypeDef>): AggregationDef {
  const name = node.name.value;
  const directive = node.directives?.find((d) => d.name.value === "aggregation");
  if (!directive) fail(`type ${name} is missing the @aggregation directive`, name);
  const source = stringArg(directive, "source");
  if (source === "missing") fail(`Aggregation ${name} is missing the \`source\` argument`, name);
  if (source === "invalid") fail(`Aggregation ${name} has an invalid argument for \`source\`: it must be the name of a timeseries`, name);
  const sourceType = entities.get(source.value);
  if (!sourceType) fail(`Aggregaton ${name} uses ${source.value} as the source, but there is no timeseries of that name`, name);
  if (!sourceType.timeseries) fail(`Aggregation ${name} uses ${source.value} as the source, but that type is not a timeseries`, name);

  const intervalsArg = directive.arguments?.find((a) => a.name.value === "intervals")?.value;
  if (!intervalsArg) fail(`Aggregation ${name} is missing an \`intervals\` argument for the timeseries directive`, name);
  if (intervalsArg.kind !== Kind.LIST || intervalsArg.values.length === 0 || intervalsArg.values.some((v) => v.kind !== Kind.STRING)) {
    fail(`Aggregation ${name} has an invalid argument for \`intervals\`: it must be a non-empty list of strings`, name);
  }
  const intervals: AggregationInterval[] = [];
  for (const value of intervalsArg.values) {
    const interval = (value as { value: string }).value;
    if (interval !== "hour" && interval !== "day") fail(`Aggregation ${name}: the interval ${interval} is not supported`, name);
    if (!intervals.includes(interval)) intervals.push(interval);
  }
  intervals.sort((a, b) => INTERVAL_SECONDS[a] - INTERVAL_SECONDS[b]);

  const byName = new Map(fields.map((f) => [f.name, f]));
  const id = byName.get("id");
  if (!id) fail(`entity ${name} has no id field`, name);
  if (baseTypeName(id) !== baseTypeName(sourceType.fieldsByName.get("id") ?? id) || id.type.kind !== "scalar" || id.type.scalar !== "Int8") {
    fail(`The type of the \`id\` field for aggregation ${name} must be Int8, the same as in the source, but is ${baseTypeName(id)}`, name);
  }
  const timestamp = byName.get("timestamp");
  if (!timestamp) fail(`Timeseries ${name} is missing a \`timestamp\` field`, name);
  if (timestamp.type.kind !== "scalar" || timestamp.type.scalar !== "Timestamp") fail(`Type ${name} has a \`timestamp\` field of type ${baseTypeName(timestamp)}, but it must be of type Timestamp`, name);

  const dimensions: FieldDef[] = [];
  const aggregates: AggregateDef[] = [];
  const fieldNodes = node.fields ?? [];
  for (const [i, field] of fields.entries()) {
    if (field.derivedFrom !== null) fail(`Aggregation ${name} has a derived field ${field.name} but fields in aggregations can not be derived`, name);
    if (field.name === "id" || field.name === "timestamp") continue;
    const aggregate = fieldNodes[i]?.directives?.find((d) => d.name.value === "aggregate");
    if (!aggregate) {
      const inSource = sourceType.fieldsByName.get(field.name);
      if (!inSource) fail(`Aggregation ${name} uses ${source.value} as the source, but that does not have a field ${field.name}`, name);
      if (fieldTypeText(inSource) !== fieldTypeText(field)) fail(`Field ${field.name} in aggregation ${name} has type ${fieldTypeText(field)} but its type in the source is ${fieldTypeText(inSource)}`, name);
      dimensions.push(field);
      continue;
    }
    aggregates.push(readAggregate(name, field, aggregate, sourceType));
  }
  if (aggregates.length === 0) fail(`Aggregation ${name} has no @aggregate fields`, name);
  return { name, source: source.value, intervals, fields, dimensions, aggregates };
}

function readAggregate(name: string, field: FieldDef, directive: ConstDirectiveNode, source: EntityTypeDef): AggregateDef {
  const fnArg = stringArg(directive, "fn");
  if (fnArg === "missing") fail(`Field ${field.name} in aggregation ${name} is missing the \`fn\` argument`, name);
  const fn = fnArg === "invalid" ? null : FNS.find((f) => f === fnArg.value);
  if (!fn) fail(`Field ${field.name} in aggregation ${name} uses the unknown aggregation function \`${fnArg === "invalid" ? "?" : fnArg.value}\``, name);
  const firstLast = fn === "first" || fn === "last";
  const kind = field.type.kind === "scalar" ? field.type.scalar : null;
  if (!(kind && NUMERIC.includes(kind)) && !(firstLast && (kind === "Bytes" || kind === "String" || field.type.kind === "reference"))) {
    fail(`Aggregate ${field.name} in aggregation ${name} must be of a numeric type`, name);
  }
  const cumulativeArg = directive.arguments?.find((a) => a.name.value === "cumulative")?.value;
  if (cumulativeArg && cumulativeArg.kind !== Kind.BOOLEAN) fail(`Field ${field.name} in aggregation ${name} has an invalid value for \`cumulative\`. It needs to be a boolean`, name);
  const cumulative = cumulativeArg?.kind === Kind.BOOLEAN && cumulativeArg.value;
  if (fn === "count") return { field, fn, arg: null, cumulative };
  const argArg = stringArg(directive, "arg");
  if (argArg === "missing") fail(`Field ${field.name} in aggregation ${name} is missing the \`arg\` argument since the function ${fn} requires it`, name);
  if (argArg === "invalid") fail(`Field ${field.name} in aggregation ${name} has an invalid argument for \`arg\`: it must be a string`, name);
  const plain = source.fieldsByName.get(argArg.value);
  if (plain) {
    const plainKind = plain.type.kind === "scalar" ? plain.type.scalar : null;
    if (!firstLast && !(plainKind && NUMERIC.includes(plainKind))) fail(`Field ${field.name} in aggregation ${name} has arg \`${argArg.value}\` but that is not a numeric field in ${source.name}`, name);
  } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(argArg.value)) {
    fail(`Field ${field.name} in aggregation ${name} has \`arg\` ${argArg.value} but the source type does not have such a field`, name);
  } else {
    // An expression: only source fields, constants and graph-node's allowed functions and operators.
    aggregateArgColumns(argArg.value, source, (message) => fail(message, name));
  }
  return { field, fn, arg: argArg.value, cumulative };
}

/** An aggregation's rows as an entity type (immutable, Int8 ids): how the store keeps and the API reads them. */
export function aggregationAsEntity(def: AggregationDef, name: string = def.name): EntityTypeDef {
  return { name, immutable: true, timeseries: false, idKind: "Int8", fields: def.fields, fieldsByName: new Map(def.fields.map((f) => [f.name, f])), interfaces: [] };
}
