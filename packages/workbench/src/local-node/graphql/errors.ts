// Query errors in graph-node's JSON shape: {"message": ..., "locations": [{line, column}]} where
// graph-node reports a position (unknown fields, argument values), message only otherwise.
import { BaseError } from "../../lib/errors.js";
import { Kind, type ValueNode } from "graphql";

export interface Location {
  line: number;
  column: number;
}

export class QueryError extends BaseError {
  override readonly name = "QueryError";
  readonly locations: Location[] | undefined;
  constructor(message: string, locations?: Location[], options: { cause?: unknown } = {}) {
    super(message, { ...options, deterministic: true });
    this.locations = locations;
  }

  toJSON(): { message: string; locations?: Location[] } {
    return this.locations ? { locations: this.locations, message: this.message } : { message: this.message };
  }
}

/** A request that cannot be served at all (unknown subgraph, bad body): HTTP status + graph-node text. */
export class RequestError extends BaseError {
  override readonly name = "RequestError";
  constructor(readonly status: number, message: string) {
    super(message, { details: { status } });
  }
}

export const unknownField = (typeName: string, field: string, loc?: Location): QueryError =>
  new QueryError(`Type \`${typeName}\` has no field \`${field}\``, loc ? [loc] : undefined);

export const invalidArgument = (name: string, value: string, loc?: Location): QueryError =>
  new QueryError(`Invalid value provided for argument \`${name}\`: ${value}`, loc ? [loc] : undefined);

export const missingArgument = (name: string, loc?: Location): QueryError =>
  new QueryError(`No value provided for required argument: \`${name}\``, loc ? [loc] : undefined);

export const rangeError = (arg: string, max: number, actual: number | string): QueryError =>
  new QueryError(`The \`${arg}\` argument must be between 0 and ${max}, but is ${actual}`);

export const valueParseError = (what: string, message: string): QueryError =>
  new QueryError(`Failed to decode \`${what}\` value: \`${message}\``);

/** A query value printed like graph-node's `{:?}` of a graphql_parser value (e.g. `String("abc")`). */
export function debugValue(node: ValueNode, variables: Record<string, unknown> = {}): string {
  switch (node.kind) {
    case Kind.VARIABLE: {
      const value = variables[node.name.value];
      return value === undefined ? `Variable(${JSON.stringify(node.name.value)})` : debugJson(value);
    }
    case Kind.INT: return `Int(Number(${node.value}))`;
    case Kind.FLOAT: return `Float(${node.value})`;
    case Kind.STRING: return `String(${JSON.stringify(node.value)})`;
    case Kind.BOOLEAN: return `Boolean(${node.value})`;
    case Kind.NULL: return "Null";
    case Kind.ENUM: return `Enum(${JSON.stringify(node.value)})`;
    case Kind.LIST: return `List([${node.values.map((v) => debugValue(v, variables)).join(", ")}])`;
    case Kind.OBJECT: {
      const fields = [...node.fields].sort((a, b) => (a.name.value < b.name.value ? -1 : 1));
      return `Object({${fields.map((f) => `${JSON.stringify(f.name.value)}: ${debugValue(f.value, variables)}`).join(", ")}})`;
    }
  }
}

export function debugJson(value: unknown): string {
  if (value === null || value === undefined) return "Null";
  if (typeof value === "number") return Number.isInteger(value) ? `Int(Number(${value}))` : `Float(${value})`;
  if (typeof value === "string") return `String(${JSON.stringify(value)})`;
  if (typeof value === "boolean") return `Boolean(${value})`;
  if (Array.isArray(value)) return `List([${value.map(debugJson).join(", ")}])`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `Object({${entries.map(([k, v]) => `${JSON.stringify(k)}: ${debugJson(v)}`).join(", ")}})`;
}
