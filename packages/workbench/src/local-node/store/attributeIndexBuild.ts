// The work postponed until a deployment has synced: its attribute indexes, then planner statistics
// (PGlite runs no autovacuum). On PGlite both are bounded in memory: its WebAssembly memory never
// shrinks, so whatever an index build's sort or ANALYZE's row sample touches stays resident for the
// node's life. With Postgres's defaults (maintenance_work_mem 64MB, a sample of 30,000 rows) a
// 100,000-approval deployment raised PGlite's resident memory by about 11 MiB at the end of its
// catch-up, when the threads' heaps are at their largest: the first index's sort held every row. With
// a 2MB sort (it spills to temporary files) and a 6,000-row sample it grows by about 3 MiB, and the
// build takes a little longer (1.3-1.5 s against 1.2 in a standalone PGlite; docs/benchmarks.md).
// A Postgres server keeps its own settings: it gives the memory back.
import type { Queryable } from "./database.js";
import { attributeIndexesSql, type DeploymentLayout } from "./layout.js";

/** PGlite's sort memory for the index builds (Postgres's maintenance_work_mem). */
export const PGLITE_INDEX_BUILD_MEMORY = "2MB";
/** PGlite's statistics target for the ANALYZE after them: a sample of 6,000 rows instead of 30,000. */
export const PGLITE_STATISTICS_TARGET = 20;

/** Builds the attribute indexes and analyzes the deployment's tables inside `tx` (a transaction: the settings end with it). */
export async function buildAttributeIndexes(tx: Queryable, layout: DeploymentLayout, backend: "pglite" | "postgres"): Promise<void> {
  if (backend === "pglite") await tx.exec(`set local maintenance_work_mem = '${PGLITE_INDEX_BUILD_MEMORY}'; set local default_statistics_target = ${PGLITE_STATISTICS_TARGET}`);
  const ddl = attributeIndexesSql(layout);
  if (ddl) await tx.exec(ddl);
  for (const t of layout.tables.values()) await tx.exec(`analyze ${t.qualified}`);
}
