// Every id of one entity type, paged by id: the host worker keeps them so that a read of an id it
// has never seen (every ApprovalQuery save checks immutability) is answered "absent" without a query.
import type { IndexerStore } from "./types.js";

const PAGE = 20_000;
/** "Latest" for the store's block-range visibility (int4 upper bound). */
const LATEST = 2_147_483_647;

export async function allEntityIds(store: IndexerStore, deploymentId: string, entityType: string): Promise<string[]> {
  if (!store.queryEntities) throw new Error("the store cannot list entity ids");
  const out: string[] = [];
  let after: string | null = null;
  for (;;) {
    const result = await store.queryEntities(deploymentId, {
      entityTypes: [entityType],
      filter: after === null ? null : { kind: "compare", field: "id", op: "gt", value: after },
      order: null,
      skip: 0,
      first: PAGE,
      block: LATEST,
      selection: [{ key: "id", kind: "field", field: "id" }],
    });
    for (const row of result.rows) out.push(String(row.id));
    if (result.rows.length < PAGE) return out;
    after = out[out.length - 1]!;
  }
}
