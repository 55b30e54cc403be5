// Turns a fork base's answer into the entity the deployment stores, by the deployment's own schema
// (graph-node's SubgraphFork::extract_entity, then Value::from_query_value per field): Bytes from hex,
// BigInt, BigDecimal, Int8 and Timestamp from their strings, references from their `{ id }`.
import { formatBigDecimal, parseBigDecimal, type EntityData, type StoreValue } from "../../wasm-host/index.js";
import { fieldTypeText, type EntityTypeDef, type FieldDef, type IdKind, type SubgraphSchema } from "../../subgraph-schema/index.js";
import { fetchedFields } from "./forkQuery.js";

/** Why one value could not be converted; the caller words the whole message. */
class ConversionError extends Error {}

const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;

function hexToBytes(text: string): Uint8Array {
  const hex = text.startsWith("0x") ? text.slice(2) : text;
  if (hex.length % 2 !== 0) throw new ConversionError("Odd number of digits");
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new ConversionError("Invalid character");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function integer(text: string, what: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new ConversionError(`invalid ${what}`);
  return BigInt(text);
}

function fromId(value: string, kind: IdKind): StoreValue {
  if (kind === "Bytes") return { kind: "Bytes", value: hexToBytes(value) };
  if (kind === "Int8") return { kind: "Int8", value: integer(value, "Int8") };
  return { kind: "String", value };
}

/** The id kind of a reference's target: an entity type's, or the first implementer's for an interface. */
function targetIdKind(schema: SubgraphSchema, field: FieldDef): IdKind {
  if (field.type.kind !== "reference") return "String";
  const target = field.type.targetIsInterface ? schema.interfaces.get(field.type.target)?.implementedBy[0] : field.type.target;
  return (target === undefined ? undefined : schema.entities.get(target)?.idKind) ?? "String";
}

function scalarOrEnum(schema: SubgraphSchema, field: FieldDef, json: unknown): StoreValue {
  const t = field.type;
  if (t.kind === "reference") {
    const id = typeof json === "object" && json !== null ? (json as { id?: unknown }).id : undefined;
    if (typeof id !== "string") throw new ConversionError("a reference is answered as `{ id }` with a string id");
    return fromId(id, targetIdKind(schema, field));
  }
  if (t.kind === "enum") {
    if (typeof json !== "string") throw new ConversionError("an enum value is a string");
    return { kind: "String", value: json };
  }
  switch (t.scalar) {
    case "ID":
    case "String":
      if (typeof json !== "string") throw new ConversionError("not a string");
      return { kind: "String", value: json };
    case "Boolean":
      if (typeof json !== "boolean") throw new ConversionError("not a boolean");
      return { kind: "Bool", value: json };
    case "Int":
      if (typeof json !== "number" || !Number.isInteger(json) || json < I32_MIN || json > I32_MAX) throw new ConversionError("not a 32-bit integer");
      return { kind: "Int", value: json };
    case "Bytes":
      if (typeof json !== "string") throw new ConversionError("Bytes are answered as a hex string");
      return { kind: "Bytes", value: hexToBytes(json) };
    case "BigInt":
      if (typeof json !== "string") throw new ConversionError("a BigInt is answered as a string");
      return { kind: "BigInt", value: integer(json, "BigInt") };
    case "Int8":
      if (typeof json !== "string" && !(typeof json === "number" && Number.isSafeInteger(json))) throw new ConversionError("an Int8 is answered as a string");
      return { kind: "Int8", value: integer(String(json), "Int8") };
    case "Timestamp":
      if (typeof json !== "string" && !(typeof json === "number" && Number.isSafeInteger(json))) throw new ConversionError("a Timestamp is answered as a string of microseconds");
      return { kind: "Timestamp", value: integer(String(json), "Timestamp") };
    case "BigDecimal": {
      const parsed = typeof json === "string" ? parseBigDecimal(json) : null;
      if (parsed === null) throw new ConversionError("a BigDecimal is answered as a decimal string");
      return { kind: "BigDecimal", value: formatBigDecimal(parsed) };
    }
  }
}

function fieldValue(schema: SubgraphSchema, field: FieldDef, json: unknown): StoreValue {
  if (json === null) return { kind: "Null" };
  if (field.list) {
    if (!Array.isArray(json)) throw new ConversionError("not a list");
    return { kind: "Array", value: json.map((item) => (item === null ? { kind: "Null" } : scalarOrEnum(schema, field, item))) };
  }
  return scalarOrEnum(schema, field, json);
}

/** Raised for an answer whose entity does not fit the schema; the fork words it. */
export class AnswerShapeError extends Error {}

/**
 * The entity in `answer` (the singular field's value), or null when the base has none. Every stored
 * field must be present: a base on another schema is a clear error, not a half entity.
 */
export function entityFromAnswer(schema: SubgraphSchema, type: EntityTypeDef, answered: unknown): EntityData | null {
  if (answered === null || answered === undefined) return null;
  if (typeof answered !== "object" || Array.isArray(answered)) throw new AnswerShapeError(`the entity is answered as ${JSON.stringify(answered)}, not an object`);
  const entity = answered as Record<string, unknown>;
  const data: EntityData = new Map();
  for (const field of fetchedFields(type)) {
    if (!Object.hasOwn(entity, field.name)) throw new AnswerShapeError(`the answer has no field \`${field.name}\` (does the base serve the same \`${type.name}\` type?)`);
    const json = entity[field.name];
    try {
      data.set(field.name, fieldValue(schema, field, json));
    } catch (error) {
      if (!(error instanceof ConversionError)) throw error;
      // graph-node's words for a value that does not convert.
      throw new AnswerShapeError(`Unexpected error during entity extraction! Failed to convert JSON value \`${JSON.stringify(json)}\` to type \`${fieldTypeText(field)}\`: ${error.message}`);
    }
  }
  return data;
}
