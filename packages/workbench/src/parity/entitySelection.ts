// What to read of an entity type so that two engines can be compared: every scalar and enum field,
// references as their ids, derived fields as the ids they resolve to (ordered by id).
import type { EntityTypeDef, SubgraphSchema } from "../subgraph-schema/index.js";
import { queryFieldNames } from "../local-node/graphql/index.js";

export function selectionOf(type: EntityTypeDef): string {
  return type.fields
    .map((f) => {
      if (f.type.kind !== "reference") return f.name;
      return f.list || f.derivedFrom ? `${f.name}(first: 1000, orderBy: id) { id }` : `${f.name} { id }`;
    })
    .join(" ");
}

/** The entity types two engines hold rows of (timeseries types too: graph-node serves them as collections). */
export function comparableTypes(schema: SubgraphSchema): EntityTypeDef[] {
  return [...schema.entities.values()];
}

/** The GraphQL type of a filter on `id` for this type. */
export function idVariableType(type: EntityTypeDef): string {
  return type.idKind === "Bytes" ? "Bytes" : type.idKind === "Int8" ? "Int8" : "ID";
}

export function collectionField(type: EntityTypeDef): string {
  return queryFieldNames(type.name).plural;
}

export function singularField(type: EntityTypeDef): string {
  return queryFieldNames(type.name).singular;
}
