// Which of many entities exist, in a few queries: the bulk check behind the host worker's
// speculative runs (one `id_in` query per entity type and 1,000 ids, instead of a read per save).
import type { EntityKey } from "./hostProtocol.js";
import type { IndexerStore } from "./types.js";

const CHUNK = 1000;
/** "Latest" for the store's block-range visibility (int4 upper bound). */
const LATEST = 2_147_483_647;

export async function existingEntities(store: IndexerStore, deploymentId: string, keys: EntityKey[]): Promise<EntityKey[]> {
  const byType = new Map<string, string[]>();
  for (const k of keys) {
    const ids = byType.get(k.entityType) ?? [];
    ids.push(k.id);
    byType.set(k.entityType, ids);
  }
  const out: EntityKey[] = [];
  for (const [entityType, ids] of byType) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      if (!store.queryEntities) {
        for (const id of chunk) if (await store.getEntity(deploymentId, entityType, id)) out.push({ entityType, id });
        continue;
      }
      const result = await store.queryEntities(deploymentId, {
        entityTypes: [entityType],
        filter: { kind: "compare", field: "id", op: "in", value: chunk },
        order: null,
        skip: 0,
        first: chunk.length,
        block: LATEST,
        selection: [{ key: "id", kind: "field", field: "id" }],
      });
      // Bytes ids come back as lowercase hex; match the host's spelling case-insensitively.
      const wanted = new Map(chunk.map((id) => [id.toLowerCase(), id]));
      for (const row of result.rows) {
        const id = wanted.get(String(row.id).toLowerCase());
        if (id !== undefined) out.push({ entityType, id });
      }
    }
  }
  return out;
}
