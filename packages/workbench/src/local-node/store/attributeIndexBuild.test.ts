import { afterAll, beforeAll, expect, it } from "vitest";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { createDatabase, type Database } from "./database.js";
import { buildLayout, createTablesSql, type DeploymentLayout } from "./layout.js";
import { buildAttributeIndexes, PGLITE_INDEX_BUILD_MEMORY, PGLITE_STATISTICS_TARGET } from "./attributeIndexBuild.js";
import { describeBackends } from "./_test/backends.js";
import { TEST_SCHEMA } from "./_test/fixtures.js";

// Accounts with distinct balances: enough rows that the histogram's length follows the statistics target.
const ROWS = 10_000;

describeBackends("the attribute index build after the sync", (makeBackend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let layout: DeploymentLayout;
  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    db = await createDatabase(backend.options);
    layout = buildLayout("sgd_index_build", parseSubgraphSchema(TEST_SCHEMA));
    await db.exec(createTablesSql(layout));
    const account = layout.tables.get("Account")!;
    await db.exec(`insert into ${account.qualified} (id, name, balance, block_range) select 'a' || i, 'n' || i, i, int4range(1, null) from generate_series(1, ${ROWS}) as i`);
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  it("indexes and analyzes every table, with bounded sort memory and sample on PGlite only", async () => {
    // The server's own settings (Postgres's defaults unless DATABASE_URL names a server configured otherwise).
    const [own] = await db.query<{ memory: string; target: string }>("select current_setting('maintenance_work_mem') as memory, current_setting('default_statistics_target') as target");
    const during = await db.transaction(async (tx) => {
      await buildAttributeIndexes(tx, layout, db.kind);
      const [settings] = await tx.query<{ memory: string }>("select current_setting('maintenance_work_mem') as memory");
      return settings?.memory;
    });
    // PGlite's own default, 64MB, holds a whole sort of a large table in memory, and PGlite would keep it.
    if (db.kind === "pglite") expect(own).toEqual({ memory: "64MB", target: "100" });
    expect(during).toBe(db.kind === "pglite" ? PGLITE_INDEX_BUILD_MEMORY : own?.memory);
    const indexes = await db.query<{ name: string }>("select indexname as name from pg_indexes where schemaname = 'sgd_index_build' and indexname like '%attr%'");
    // ApprovalQuery: owner, spender, value, blockNumber, account; Account: name, balance, ratio, count, big, active, at.
    expect(indexes).toHaveLength(12);
    const [stats] = await db.query<{ buckets: number }>("select array_length(histogram_bounds, 1) as buckets from pg_stats where schemaname = 'sgd_index_build' and tablename = 'account' and attname = 'balance'");
    // A target of N gives N + 1 histogram bounds (the server's own target on Postgres).
    expect(stats?.buckets).toBe((db.kind === "pglite" ? PGLITE_STATISTICS_TARGET : Number(own?.target)) + 1);
    // The empty table is analyzed too: a table never analyzed counts -1 tuples.
    const [empty] = await db.query<{ tuples: number }>("select reltuples as tuples from pg_class where oid = 'sgd_index_build.approval_query'::regclass");
    expect(empty?.tuples).toBe(0);
    // The settings ended with the transaction.
    const [after] = await db.query<{ memory: string; target: string }>("select current_setting('maintenance_work_mem') as memory, current_setting('default_statistics_target') as target");
    expect(after).toEqual(own);
  });
});
