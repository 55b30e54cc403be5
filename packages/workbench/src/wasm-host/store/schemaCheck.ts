// graph-node's entity validation (graph/src/data/store/mod.rs `Entity::validate` and the id checks of
// host_exports.rs `store_set`), on plain EntityData, with graph-node's error wording.
import type { EntityTypeDef, FieldDef, SubgraphSchema } from "../../subgraph-schema/index.js";
import { storageKind } from "../../subgraph-schema/index.js";
import type { EntityData, StoreValue } from "../values/storeValue.js";
import { HostError } from "../errors.js";
import { bytesToHex, tryHexToBytes } from "../values/hex.js";
import { toString as bigDecimalToString, fromString as bigDecimalFromString } from "../values/bigDecimalMath.js";

export function entityTypeOf(schema: SubgraphSchema, entityType: string, id: string, op: string): EntityTypeDef {
  const def = schema.entities.get(entityType);
  if (def === undefined) {
    if (schema.interfaces.has(entityType) || schema.enums.has(entityType)) {
      throw new HostError("SCHEMA", `Cannot ${op} entity of type \`${entityType}\`. The type must be an @entity type`, { details: { entityType, id } });
    }
    throw new HostError("SCHEMA", `Entity ${entityType}[${id}]: unknown entity type \`${entityType}\``, { details: { entityType, id } });
  }
  return def;
}

/** graph-node's `Value::type_name`. */
export function valueTypeName(value: StoreValue): string {
  switch (value.kind) {
    case "Bool":
      return "Boolean";
    case "Array":
      return value.value.length > 0 ? `[${valueTypeName(value.value[0]!)}]` : "[Any]";
    default:
      return value.kind;
  }
}

/** graph-node's `Display for Value` (used in error messages). */
export function displayValue(value: StoreValue): string {
  switch (value.kind) {
    case "Null":
      return "null";
    case "Array":
      return `[${value.value.map(displayValue).join(", ")}]`;
    case "Bytes":
      return bytesToHex(value.value);
    case "BigDecimal": {
      const parsed = bigDecimalFromString(value.value);
      return parsed === null ? value.value : bigDecimalToString(parsed);
    }
    default:
      return String(value.value);
  }
}

function fieldTypeString(field: FieldDef): string {
  const base = field.type.kind === "scalar" ? field.type.scalar : field.type.kind === "enum" ? field.type.enum : field.type.target;
  if (!field.list) return base + (field.nonNull ? "!" : "");
  return `[${base}${field.itemNonNull ? "!" : ""}]${field.nonNull ? "!" : ""}`;
}

const KIND_OF_SCALAR: Record<string, StoreValue["kind"]> = {
  String: "String",
  Bytes: "Bytes",
  BigInt: "BigInt",
  BigDecimal: "BigDecimal",
  Int: "Int",
  Int8: "Int8",
  Boolean: "Bool",
  Timestamp: "Timestamp",
};

function assignable(value: StoreValue, expected: StoreValue["kind"], isList: boolean): boolean {
  if (value.kind === "Null" || value.kind === expected) return true;
  if (value.kind === "Array" && isList) return value.value.every((v) => assignable(v, expected, false));
  return false;
}

/** The id value an entity of `def` gets for `id` (String, Bytes from hex, or Int8). */
export function idValue(def: EntityTypeDef, id: string): StoreValue {
  if (def.idKind === "Bytes") {
    const bytes = tryHexToBytes(id);
    if (bytes === null) throw new HostError("SCHEMA", `Entity ${def.name}[${id}]: the id \`${id}\` is not valid hex for an id of type Bytes`);
    return { kind: "Bytes", value: bytes };
  }
  if (def.idKind === "Int8") {
    if (!/^-?\d+$/.test(id)) throw new HostError("SCHEMA", `Entity ${def.name}[${id}]: the id \`${id}\` is not an Int8`);
    return { kind: "Int8", value: BigInt(id) };
  }
  return { kind: "String", value: id };
}

/** The id as graph-node keys it: Bytes ids as lowercase 0x hex, Int8 ids as decimal. */
export function canonicalId(def: EntityTypeDef, id: string): string {
  if (def.idKind === "String") return id;
  const value = idValue(def, id);
  return value.kind === "Bytes" ? bytesToHex(value.value) : value.kind === "Int8" ? value.value.toString() : id;
}

function sameValue(a: StoreValue, b: StoreValue): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "Bytes" && b.kind === "Bytes") return bytesToHex(a.value) === bytesToHex(b.value);
  if (a.kind === "Array" || a.kind === "Null") return false;
  return (a as { value: unknown }).value === (b as { value: unknown }).value;
}

function debugValue(v: StoreValue): string {
  return v.kind === "Null" ? "Null" : `${v.kind}(${JSON.stringify(displayValue(v))})`;
}

/**
 * The data `store.set` stores: the `id` attribute checked against the key (or added), and fields
 * the schema does not know dropped (apiVersion < 0.0.8) or rejected (>= 0.0.8). Updates `data`
 * in place (the caller passes a map it owns) and returns it.
 */
export function prepareSetData(def: EntityTypeDef, id: string, data: EntityData, rejectUndefinedFields = false): EntityData {
  const key = idValue(def, id);
  const given = data.get("id");
  if (given !== undefined) {
    if (given.kind !== key.kind) {
      throw new HostError("SCHEMA", `Attribute \`${def.name}.id\` has wrong type: expected ${key.kind} but got ${valueTypeName(given)}`);
    }
    if (!sameValue(given, key)) {
      throw new HostError("SCHEMA", `Value of ${def.name} attribute 'id' conflicts with ID passed to \`store.set()\`: ${debugValue(given)} != ${debugValue(key)}`);
    }
  } else {
    data.set("id", key);
  }
  let undefinedFields: string[] | null = null;
  for (const name of data.keys()) {
    if (!def.fieldsByName.has(name)) {
      (undefinedFields ??= []).push(name);
      data.delete(name);
    }
  }
  // apiVersion >= 0.0.8 turns the silent filtering into an error.
  if (rejectUndefinedFields && undefinedFields !== null) {
    throw new HostError(
      "SCHEMA",
      `Attempted to set undefined fields [${undefinedFields.sort().join(", ")}] for the entity type \`${def.name}\`. Make sure those fields are defined in the schema.`,
    );
  }
  return data;
}

/** `Entity::validate`: kinds, list element kinds, non-null fields, derived fields. Throws HostError. */
export function validateEntity(schema: SubgraphSchema, def: EntityTypeDef, id: string, entity: EntityData): void {
  for (const field of def.fields) {
    const value = entity.get(field.name);
    if (field.derivedFrom !== null) {
      if (value !== undefined) {
        throw new HostError("SCHEMA", `Entity ${def.name}[${id}]: field \`${field.name}\` is derived and cannot be set`);
      }
      continue;
    }
    if (value === undefined) {
      if (field.nonNull) throw new HostError("SCHEMA", `Entity ${def.name}[${id}]: missing value for non-nullable field \`${field.name}\``);
      continue;
    }
    const expected = KIND_OF_SCALAR[storageKind(schema, field)] ?? "String";
    if (field.list && value.kind === "Array") {
      value.value.forEach((element, index) => {
        if (!assignable(element, expected, false)) {
          throw new HostError(
            "SCHEMA",
            `Entity ${def.name}[${id}]: field \`${field.name}\` is of type ${fieldTypeString(field)}, but the value \`${displayValue(value)}\` contains a ${valueTypeName(element)} at index ${index}`,
          );
        }
      });
    }
    if (!assignable(value, expected, field.list)) {
      throw new HostError(
        "SCHEMA",
        `Entity ${def.name}[${id}]: the value \`${displayValue(value)}\` for field \`${field.name}\` must have type ${fieldTypeString(field)} but has type ${valueTypeName(value)}`,
      );
    }
  }
}
