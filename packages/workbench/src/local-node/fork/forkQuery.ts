// The GraphQL query a debug fork sends for one entity (graph-node's store/postgres/src/fork.rs): the
// type's singular field with the id as a variable and `subgraphError: allow`, no `block:` argument (the
// base answers from its latest block), every stored field of the deployment's own schema, references as
// `{ id }`.
import { queryFieldNames } from "../graphql/index.js";
import type { EntityTypeDef, FieldDef } from "../../subgraph-schema/index.js";

export interface ForkQuery {
  query: string;
  variables: { id: string };
}

/** The fields a fork reads: derived fields are not stored, so they are neither asked for nor written. */
export function fetchedFields(type: EntityTypeDef): FieldDef[] {
  return type.fields.filter((f) => f.derivedFrom === null);
}

/** The answer's key for the entity: the singular query field (Inflector's camelCase, as graph-node's API). */
export function singularField(typeName: string): string {
  return queryFieldNames(typeName).singular;
}

/**
 * graph-node's text, laid out as it lays it out. It declares `$id: String` (nullable, though the
 * argument is `ID!`); graph-node accepts that, and so does the local node.
 */
export function forkQuery(type: EntityTypeDef, id: string): ForkQuery {
  const selection = fetchedFields(type)
    .map((f) => (f.type.kind === "reference" ? `${f.name} { id }` : f.name))
    .join(" ");
  const query = `query Query ($id: String) {\n    ${singularField(type.name)}(id: $id, subgraphError: allow) {\n        ${selection}\n    }\n}`;
  return { query, variables: { id } };
}
