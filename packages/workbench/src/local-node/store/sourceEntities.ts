// Subgraph composition's reads: the entities a source deployment created in a block range, which become
// the composed deployment's triggers. Sources may only be read for immutable types (checked at deploy),
// so every row is a creation, at its `block$`; graph-node orders a block's by vid.
import { StoreError } from "./errors.js";
import { onchainOnly, rowToEntity, selectAllSql } from "./layout.js";
import { layoutOf, type StoreState } from "./storeState.js";
import type { CreatedEntity } from "./types.js";

export type { CreatedEntity };

export async function entitiesCreatedIn(s: StoreState, id: string, entityTypes: string[], from: number, to: number): Promise<CreatedEntity[]> {
  const layout = await layoutOf(s, id);
  const out: CreatedEntity[] = [];
  for (const entityType of entityTypes) {
    const table = layout.tables.get(entityType);
    if (!table) throw new StoreError(`unknown entity type ${entityType} in deployment ${id}`, { details: { entityType } });
    if (!table.immutable) throw new StoreError(`entity type ${entityType} of deployment ${id} is not immutable: it cannot be a subgraph data source's trigger`, { details: { entityType } });
    const rows = await s.db.query<Record<string, unknown> & { block$: number; vid$: string }>(
      `select ${selectAllSql(table)}, t."block$" as "block$", t.vid::text as "vid$" from ${table.qualified} t where t."block$" between $1 and $2${onchainOnly(table)} order by t."block$", t.vid`,
      [from, to],
    );
    for (const row of rows) out.push({ block: Number(row.block$), entityType, vid: Number(row.vid$), data: rowToEntity(table, row) });
  }
  // Within a block: by vid (graph-node's vids follow the block's writes across types; here each table
  // counts its own, so several types written in one block interleave by their own counts).
  return out.sort((a, b) => a.block - b.block || a.vid - b.vid);
}
