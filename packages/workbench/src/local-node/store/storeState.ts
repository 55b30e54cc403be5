// What the node store's modules share: the database and the per-deployment table layouts, which are
// built once from the stored schema and cached (they never change for a deployment id).
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import type { Database, Queryable } from "./database.js";
import { DeploymentNotFoundError } from "./errors.js";
import { buildLayout, type DeploymentLayout } from "./layout.js";
import { readDeploymentRow, type DeploymentRow } from "./metadata.js";
import type { PruningPolicy } from "./types.js";
import type { ImmutableRowCounts } from "./immutableCounts.js";

export interface StoreState {
  readonly db: Database;
  readonly layouts: Map<string, DeploymentLayout>;
  readonly pruning: PruningPolicy;
  /** Each deployment's last rollup time (microseconds), kept in memory as graph-node keeps it. */
  readonly lastRollups: Map<string, bigint>;
  /** Counts of immutable tables' rows as of the blocks the status API asked about. */
  readonly immutableCounts: ImmutableRowCounts;
}

/** The deployment's metadata row; throws DeploymentNotFoundError. */
export async function deploymentRow(q: Queryable, id: string): Promise<DeploymentRow> {
  const row = await readDeploymentRow(q, id);
  if (!row) throw new DeploymentNotFoundError(id);
  return row;
}

export async function layoutOf(s: StoreState, id: string, q: Queryable = s.db): Promise<DeploymentLayout> {
  const cached = s.layouts.get(id);
  if (cached) return cached;
  const row = await deploymentRow(q, id);
  const layout = buildLayout(row.schema_name, parseSubgraphSchema(row.schema_sdl), row.causality_region_entities);
  s.layouts.set(id, layout);
  return layout;
}
