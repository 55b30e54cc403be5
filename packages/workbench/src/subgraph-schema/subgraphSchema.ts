// parseSubgraphSchema: a subgraph's schema.graphql as plain data, shared by the WASM host (validation
// of store.set), the node's store (tables) and its GraphQL API. Parsing is graphql-js; the checks follow
// graph-node's schema validation where they matter for storing and querying entities.
import {
  Kind,
  parse,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type ObjectTypeDefinitionNode,
  type InterfaceTypeDefinitionNode,
  type TypeNode,
} from "graphql/language/index.js";
// graphql-js's language part alone: the handlers' thread parses schemas and never executes a query.
import { GraphQLError } from "graphql/error/GraphQLError.js";
import { readFulltextDefs, type FulltextDef } from "./fulltext.js";
import { SchemaError } from "./errors.js";
import { readAggregation, type AggregationDef } from "./aggregation.js";

import type { EntityTypeDef, EnumDef, FieldDef, FieldType, IdKind, InterfaceDef, ScalarKind } from "./types.js";
import { SCALAR_KINDS, baseTypeName } from "./types.js";

export interface SubgraphSchema {
  /** The source text, unchanged. */
  sdl: string;
  /** Entity types by name, in declaration order. */
  entities: Map<string, EntityTypeDef>;
  interfaces: Map<string, InterfaceDef>;
  enums: Map<string, EnumDef>;
  /** `_Schema_`'s `@fulltext` search fields. */
  fulltexts: FulltextDef[];
  /** `@aggregation` types over timeseries, in declaration order. */
  aggregations: AggregationDef[];
}

const STRING_ALIASES = new Set(["ID", "String"]);

/**
 * Parse and check a subgraph schema. Throws SchemaError (with the offending type/field in details)
 * on syntax errors, unknown types, a missing or badly typed `id`, nested lists, or a bad @derivedFrom.
 */
export function parseSubgraphSchema(sdl: string): SubgraphSchema {
  let doc: DocumentNode;
  try {
    doc = parse(sdl, { noLocation: false });
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : String(error);
    throw new SchemaError(`schema does not parse: ${message}`, { cause: error });
  }

  const objectNodes: ObjectTypeDefinitionNode[] = [];
  const aggregationNodes: ObjectTypeDefinitionNode[] = [];
  const interfaceNodes: InterfaceTypeDefinitionNode[] = [];
  const enums = new Map<string, EnumDef>();
  let schemaType: ObjectTypeDefinitionNode | undefined;
  for (const def of doc.definitions) {
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION) {
      // `_Schema_` carries @fulltext declarations; it is not an entity.
      if (def.name.value === "_Schema_") {
        schemaType = def;
        continue;
      }
      if (findDirective(def.directives, "aggregation") && !findDirective(def.directives, "entity")) {
        aggregationNodes.push(def);
        continue;
      }
      objectNodes.push(def);
    } else if (def.kind === Kind.INTERFACE_TYPE_DEFINITION) {
      interfaceNodes.push(def);
    } else if (def.kind === Kind.ENUM_TYPE_DEFINITION) {
      enums.set(def.name.value, { name: def.name.value, values: (def.values ?? []).map((v) => v.name.value) });
    }
  }

  const entityNames = new Set(objectNodes.filter((n) => findDirective(n.directives, "entity")).map((n) => n.name.value));
  const interfaceNames = new Set(interfaceNodes.map((n) => n.name.value));
  for (const node of objectNodes) {
    if (!entityNames.has(node.name.value)) {
      throw new SchemaError(`type ${node.name.value} is missing the @entity directive`, { details: { type: node.name.value } });
    }
  }

  const resolveBase = (owner: string, field: string, name: string): FieldType => {
    if ((SCALAR_KINDS as readonly string[]).includes(name)) return { kind: "scalar", scalar: name as ScalarKind };
    if (entityNames.has(name)) return { kind: "reference", target: name, targetIsInterface: false };
    if (interfaceNames.has(name)) return { kind: "reference", target: name, targetIsInterface: true };
    if (enums.has(name)) return { kind: "enum", enum: name };
    if (aggregationNodes.some((n) => n.name.value === name)) return { kind: "reference", target: name, targetIsInterface: false, targetIsAggregation: true };
    throw new SchemaError(`field ${owner}.${field} has unknown type ${name}`, { details: { type: owner, field, fieldType: name } });
  };

  const readFields = (owner: string, nodes: readonly FieldDefinitionNode[]): FieldDef[] =>
    nodes.map((node) => readField(owner, node, resolveBase));

  const interfaces = new Map<string, InterfaceDef>();
  for (const node of interfaceNodes) {
    const fields = readFields(node.name.value, node.fields ?? []);
    interfaces.set(node.name.value, { name: node.name.value, fields, fieldsByName: byName(fields), implementedBy: [] });
  }

  const entities = new Map<string, EntityTypeDef>();
  for (const node of objectNodes) {
    const name = node.name.value;
    const entityDirective = findDirective(node.directives, "entity");
    const timeseries = directiveBool(entityDirective, "timeseries");
    const immutable = timeseries || directiveBool(entityDirective, "immutable");
    const skipDuplicates = directiveBool(entityDirective, "skipDuplicates");
    if (skipDuplicates && !immutable) {
      throw new SchemaError(`Entity type \`${name}\` has skipDuplicates: true but is not immutable; skipDuplicates requires immutable: true`, { details: { type: name } });
    }
    const fields = readFields(name, node.fields ?? []);
    const fieldsByName = byName(fields);
    if (timeseries) checkTimeseries(name, entityDirective, fieldsByName);
    const id = fieldsByName.get("id");
    if (!id) throw new SchemaError(`entity ${name} has no id field`, { details: { type: name } });
    if (id.list || !id.nonNull || id.type.kind !== "scalar" || !["ID", "String", "Bytes", "Int8"].includes(id.type.scalar)) {
      throw new SchemaError(`entity ${name}: id must be one of ID!, String!, Bytes!, Int8!`, { details: { type: name } });
    }
    const idKind: IdKind = STRING_ALIASES.has(id.type.scalar) ? "String" : (id.type.scalar as IdKind);
    const implemented = (node.interfaces ?? []).map((i) => i.name.value);
    for (const iface of implemented) {
      const def = interfaces.get(iface);
      if (!def) throw new SchemaError(`entity ${name} implements unknown interface ${iface}`, { details: { type: name } });
      def.implementedBy.push(name);
    }
    entities.set(name, { name, immutable, ...(skipDuplicates ? { skipDuplicates } : {}), timeseries, idKind, fields, fieldsByName, interfaces: implemented });
  }

  const aggregations = aggregationNodes.map((node) => readAggregation(node, readFields(node.name.value, node.fields ?? []), entities));

  // @derivedFrom must name a field on the target type that points back (graph-node checks the same).
  for (const owner of [...entities.values(), ...interfaces.values()]) {
    for (const field of owner.fields) {
      if (field.type.kind === "reference" && field.type.targetIsAggregation && (field.derivedFrom === null || !field.list)) {
        throw new SchemaError(`field ${owner.name}.${field.name} lists the aggregation ${field.type.target}: this node serves aggregation fields on entity types only as a list with @derivedFrom; query ${field.type.target} through its own collection field`, { details: { type: owner.name, field: field.name, fieldType: field.type.target } });
      }
      if (field.derivedFrom === null) continue;
      if (field.type.kind !== "reference") {
        throw new SchemaError(`field ${owner.name}.${field.name}: @derivedFrom needs an entity type`, { details: { type: owner.name, field: field.name } });
      }
      const targetName = field.type.target;
      const derivedFrom = field.derivedFrom;
      const target = entities.get(targetName) ?? interfaces.get(targetName);
      const back = target ? target.fieldsByName.get(derivedFrom) : aggregations.find((a) => a.name === targetName)?.dimensions.find((d) => d.name === derivedFrom);
      if (!back || back.type.kind !== "reference") {
        throw new SchemaError(
          `field ${owner.name}.${field.name}: @derivedFrom field ${field.derivedFrom} does not exist on ${field.type.target} or is not a reference`,
          { details: { type: owner.name, field: field.name } },
        );
      }
    }
  }

  return { sdl, entities, interfaces, enums, fulltexts: readFulltextDefs(schemaType, entities), aggregations };
}

/** The column-storable fields of an entity: everything except @derivedFrom fields. */
export function storedFields(entity: EntityTypeDef): FieldDef[] {
  return entity.fields.filter((f) => f.derivedFrom === null);
}

/** The scalar kind a field's value (or each list item) is stored as: references and enums reduce to ids/strings. */
export function storageKind(schema: SubgraphSchema, field: FieldDef): ScalarKind {
  const t = field.type;
  if (t.kind === "scalar") return t.scalar === "ID" ? "String" : t.scalar;
  if (t.kind === "enum") return "String";
  // A reference stores the target's id; an interface's implementers share one id kind in graph-node.
  const target = t.targetIsInterface ? schema.interfaces.get(t.target)?.implementedBy[0] : t.target;
  const entity = target === undefined ? undefined : schema.entities.get(target);
  return entity?.idKind ?? "String";
}

function readField(owner: string, node: FieldDefinitionNode, resolveBase: (owner: string, field: string, name: string) => FieldType): FieldDef {
  const name = node.name.value;
  let t: TypeNode = node.type;
  let nonNull = false;
  let list = false;
  let itemNonNull = false;
  if (t.kind === Kind.NON_NULL_TYPE) {
    nonNull = true;
    t = t.type;
  }
  if (t.kind === Kind.LIST_TYPE) {
    list = true;
    t = t.type;
    if (t.kind === Kind.NON_NULL_TYPE) {
      itemNonNull = true;
      t = t.type;
    }
    if (t.kind === Kind.LIST_TYPE) {
      throw new SchemaError(`field ${owner}.${name}: nested lists are not supported`, { details: { type: owner, field: name } });
    }
  }
  if (t.kind !== Kind.NAMED_TYPE) throw new SchemaError(`field ${owner}.${name}: bad type`, { details: { type: owner, field: name } });
  const derived = findDirective(node.directives, "derivedFrom");
  let derivedFrom: string | null = null;
  if (derived) {
    const arg = derived.arguments?.find((a) => a.name.value === "field");
    if (!arg || arg.value.kind !== Kind.STRING) {
      throw new SchemaError(`field ${owner}.${name}: @derivedFrom needs a field: String argument`, { details: { type: owner, field: name } });
    }
    derivedFrom = arg.value.value;
  }
  return { name, type: resolveBase(owner, name, t.name.value), list, nonNull, itemNonNull, derivedFrom };
}

function findDirective(directives: readonly ConstDirectiveNode[] | undefined, name: string): ConstDirectiveNode | undefined {
  return directives?.find((d) => d.name.value === name);
}

/** graph-node's rules for `@entity(timeseries: true)`: immutable, an `Int8` id, a `Timestamp` timestamp. */
function checkTimeseries(name: string, directive: ConstDirectiveNode | undefined, fields: Map<string, FieldDef>): void {
  const immutableArg = directive?.arguments?.find((a) => a.name.value === "immutable")?.value;
  if (immutableArg?.kind === Kind.BOOLEAN && !immutableArg.value) throw new SchemaError(`Timeseries ${name} is marked as mutable, it must be immutable`, { details: { type: name } });
  const id = fields.get("id");
  if (!id || id.type.kind !== "scalar" || id.type.scalar !== "Int8") throw new SchemaError(`Timeseries \`${name}\` must have an \`id\` field of type \`Int8\``, { details: { type: name } });
  const timestamp = fields.get("timestamp");
  if (!timestamp) throw new SchemaError(`Timeseries ${name} is missing a \`timestamp\` field`, { details: { type: name } });
  if (timestamp.type.kind !== "scalar" || timestamp.type.scalar !== "Timestamp") {
    throw new SchemaError(`Type ${name} has a \`timestamp\` field of type ${baseTypeName(timestamp)}, but it must be of type Timestamp`, { details: { type: name } });
  }
}

function directiveBool(directive: ConstDirectiveNode | undefined, arg: string): boolean {
  const value = directive?.arguments?.find((a) => a.name.value === arg)?.value;
  return value?.kind === Kind.BOOLEAN && value.value;
}

function byName(fields: FieldDef[]): Map<string, FieldDef> {
  return new Map(fields.map((f) => [f.name, f]));
}
