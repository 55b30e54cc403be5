// Every entity of a type, read back through GraphQL with full paging (by id), at the head or at a block.
import type { EntityTypeDef } from "../subgraph-schema/index.js";
import { postGraphQL } from "./graphql.js";
import { collectionField, idVariableType, selectionOf } from "./entitySelection.js";

const PAGE = 1000;

export type EntityRows = { rows: Record<string, unknown>[] } | { error: string };

/** `field` is the collection's query field when the engine names it (default: graph-node's naming of the type). */
export async function readAllEntities(queryUrl: string, type: EntityTypeDef, block?: number, field = collectionField(type)): Promise<EntityRows> {
  const blockArg = block === undefined ? "" : `, block: { number: ${block} }`;
  const rows: Record<string, unknown>[] = [];
  let last: unknown = null;
  for (;;) {
    const where = last === null ? "" : ", where: { id_gt: $last }";
    const query = `query Page($last: ${idVariableType(type)}) { page: ${field}(first: ${PAGE}, orderBy: id, orderDirection: asc${where}${blockArg}) { ${selectionOf(type)} } }`;
    const answer = await postGraphQL(queryUrl, query, last === null ? {} : { last });
    if (answer.errors?.length) return { error: answer.errors.map((e) => e.message).join("; ") };
    const page = (answer.data as { page?: Record<string, unknown>[] } | undefined)?.page ?? [];
    rows.push(...page);
    if (page.length < PAGE) return { rows };
    last = page[page.length - 1]?.id ?? null;
  }
}
