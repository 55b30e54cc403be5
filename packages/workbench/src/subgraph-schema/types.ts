// The subgraph schema's building blocks: scalar kinds, fields, entity types, interfaces and enums.
/** The built-in scalar kinds graph-node stores. `ID` is stored as a String. */
export type ScalarKind = "ID" | "String" | "Bytes" | "BigInt" | "BigDecimal" | "Int" | "Int8" | "Boolean" | "Timestamp";

export const SCALAR_KINDS: readonly ScalarKind[] = ["ID", "String", "Bytes", "BigInt", "BigDecimal", "Int", "Int8", "Boolean", "Timestamp"];

/** The base type of a field, after unwrapping list and non-null. */
export type FieldType =
  | { kind: "scalar"; scalar: ScalarKind }
  /**
   * A reference to an entity type or an interface (`target`), stored as the referenced id; or, only as a
   * `@derivedFrom` list on an entity type, to an aggregation, whose buckets point back at the entity.
   */
  | { kind: "reference"; target: string; targetIsInterface: boolean; targetIsAggregation?: true }
  | { kind: "enum"; enum: string };

export interface FieldDef {
  name: string;
  type: FieldType;
  /** `[T]`, `[T!]`, `[T]!`, `[T!]!`. Nested lists are rejected. */
  list: boolean;
  /** The outer non-null (`T!` or `[T]!`). */
  nonNull: boolean;
  /** For lists: whether the items are non-null (`[T!]`). False when not a list. */
  itemNonNull: boolean;
  /** `@derivedFrom(field: "...")`: the field is not stored; it is the reverse of `field` on `type`. */
  derivedFrom: string | null;
}

/** The kinds an entity's `id` may have in graph-node. */
export type IdKind = "String" | "Bytes" | "Int8";

export interface EntityTypeDef {
  name: string;
  /** `@entity(immutable: true)` (or a timeseries): written once, never updated or removed. */
  immutable: boolean;
  /**
   * `@entity(immutable: true, skipDuplicates: true)`: a later block's insert of an existing id, an
   * overwrite or a removal is dropped instead of failing the handler (graph-node's write.rs).
   */
  skipDuplicates?: boolean;
  /** `@entity(timeseries: true)`. */
  timeseries: boolean;
  idKind: IdKind;
  /** In declaration order; includes `id` and derived fields. */
  fields: FieldDef[];
  fieldsByName: Map<string, FieldDef>;
  /** Interfaces the type implements. */
  interfaces: string[];
}

export interface InterfaceDef {
  name: string;
  fields: FieldDef[];
  fieldsByName: Map<string, FieldDef>;
  /** Entity types implementing it, in declaration order. */
  implementedBy: string[];
}

export interface EnumDef {
  name: string;
  values: string[];
}

/** The name a field's type refers to: its scalar, enum or entity type (`Token` in `[Token!]!`). */
export function baseTypeName(field: FieldDef): string {
  const t = field.type;
  return t.kind === "scalar" ? t.scalar : t.kind === "enum" ? t.enum : t.target;
}

/** The field's GraphQL type as written: `String!`, `[Int!]!`. */
export function fieldTypeText(field: FieldDef): string {
  const inner = field.list ? `[${baseTypeName(field)}${field.itemNonNull ? "!" : ""}]` : baseTypeName(field);
  return `${inner}${field.nonNull ? "!" : ""}`;
}

/**
 * graph-node's entity type for the proof-of-indexing digests (one per causality region): every
 * deployment's schema has it beside the subgraph's own types (graph-node's POI_OBJECT).
 */
export const POI_ENTITY_TYPE = "Poi$";
