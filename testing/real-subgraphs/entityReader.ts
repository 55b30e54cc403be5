// Every entity of a type, as an engine serves it, for the checks against the chain. The collection field
// is the one the engine's own schema lists for the type (found by introspection), so that values are
// checked even where an engine names the field differently from graph-node; the parity comparisons,
// which use graph-node's names, report such naming differences.
import type { SubgraphSchema } from "subgraph-workbench/subgraph-schema";
import { postGraphQL } from "subgraph-workbench/parity";
import { readAllEntities, type EntityRows } from "subgraph-workbench/parity";
import type { CheckList } from "./checks.js";

const INTROSPECTION = `{ __schema { queryType { fields { name args { name } type { kind ofType { kind ofType { kind ofType { kind name } } } } } } } }`;

interface IntrospectedType {
  kind: string;
  name?: string | null;
  ofType?: IntrospectedType | null;
}

export type { EntityRows };

export function createEntityReader(queryUrl: string, schema: SubgraphSchema): (typeName: string, block?: number, omit?: string[]) => Promise<EntityRows> {
  let fields: Promise<Map<string, string>> | undefined;
  return async (typeName, block, omit = []) => {
    const type = schema.entities.get(typeName);
    if (!type) return { error: `the schema has no entity type ${typeName}` };
    fields ??= collectionFields(queryUrl);
    const field = (await fields).get(typeName);
    if (!field) return { error: `the query type has no collection field for ${typeName}` };
    return readAllEntities(queryUrl, omit.length ? { ...type, fields: type.fields.filter((f) => !omit.includes(f.name)) } : type, block, field);
  };
}

/** Entity type name -> the query field listing it (`[T!]!` with a `where` argument). */
async function collectionFields(queryUrl: string): Promise<Map<string, string>> {
  const answer = await postGraphQL(queryUrl, INTROSPECTION);
  const list = (answer.data as { __schema?: { queryType?: { fields?: { name: string; args: { name: string }[]; type: IntrospectedType }[] } } } | undefined)?.__schema?.queryType?.fields ?? [];
  const out = new Map<string, string>();
  for (const f of list) {
    const t = f.type;
    const element = t.kind === "NON_NULL" && t.ofType?.kind === "LIST" && t.ofType.ofType?.kind === "NON_NULL" ? t.ofType.ofType.ofType : null;
    if (element?.kind === "OBJECT" && element.name && f.args.some((a) => a.name === "where")) out.set(element.name, f.name);
  }
  return out;
}

/** The reader the checks use: a failed read is a failed check (and no rows). */
export function checkedEntityReader(queryUrl: string, schema: SubgraphSchema, checks: CheckList): (typeName: string, block?: number, omit?: string[]) => Promise<Record<string, unknown>[]> {
  const read = createEntityReader(queryUrl, schema);
  return async (typeName, block, omit) => {
    const answer = await read(typeName, block, omit);
    if ("rows" in answer) return answer.rows;
    checks.equal(`${typeName} entities can be queried${block === undefined ? "" : ` at block ${block}`}`, answer.error, null);
    return [];
  };
}
