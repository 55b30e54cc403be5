// What the node's dashboard shows beside the status API: which names serve which deployment (and with
// which version label), and a deployment's entities per type at its head.
import { POI_ENTITY_TYPE } from "../../subgraph-schema/index.js";
import { visibleAt, BLOCK_MAX } from "./layout.js";
import { layoutOf, type StoreState } from "./storeState.js";
import type { SubgraphVersionRow } from "./types.js";

export async function subgraphVersions({ db }: StoreState): Promise<SubgraphVersionRow[]> {
  const rows = await db.query<{ name: string; deployment: string; label: string | null; role: "current" | "pending" }>(
    `select s.name, v.deployment, v.label, case when v.id = s.current_version then 'current' else 'pending' end as role
       from subgraphs.subgraph s join subgraphs.subgraph_version v on v.id in (s.current_version, s.pending_version)
      order by s.name, v.id`,
  );
  return rows.map((r) => ({ name: r.name, deployment: r.deployment, label: r.label, role: r.role }));
}

/** Entities at the head, by type (rollups and the proof of indexing's own entity left out). */
export async function entityCountsByType(s: StoreState, id: string): Promise<Record<string, number>> {
  const layout = await layoutOf(s, id);
  const counts: Record<string, number> = {};
  for (const table of layout.tables.values()) {
    if (table.aggregation || table.entity.name === POI_ENTITY_TYPE) continue;
    const [row] = await s.db.query<{ n: string }>(`select count(*)::text as n from ${table.qualified} t where ${visibleAt(table, "$1")}`, [BLOCK_MAX]);
    counts[table.entity.name] = Number(row?.n ?? 0);
  }
  return counts;
}
