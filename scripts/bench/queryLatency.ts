// `npm run bench:query-latency [-- --count 100000 --owners 20 --rounds 100 --backend pglite|postgres]`:
// seeds a store with synthetic approvals (the root schema.graphql) and measures query latency through
// the HTTP query server on 127.0.0.1. Postgres: a throwaway database on DATABASE_URL, else on an embedded server.
import { readFile } from "node:fs/promises";
import { createNodeStore } from "../../packages/workbench/src/local-node/store/nodeStore.js";
import { createThrowawayDatabase, type TestBackend } from "../../packages/workbench/src/local-node/store/testDatabase.js";
import { createQueryServer } from "../../packages/workbench/src/local-node/query-server/queryServer.js";
import { measureQueryLatency, seedApprovals } from "../../packages/workbench/src/local-node/graphql/queryLatency.bench.js";
import { postgresFromEnvOrThrowaway } from "subgraph-workbench/lib/embedded-postgres";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  count: { type: "string", default: "100000" },
  owners: { type: "string", default: "20" },
  rounds: { type: "string", default: "100" },
  backend: { type: "string", default: "pglite" },
});

let backend: TestBackend | null = null;
let postgres: { url: string; stop(): Promise<void> } | null = null;
try {
  if (values.backend !== "pglite" && values.backend !== "postgres") throw new Error("--backend must be pglite or postgres");
  if (values.backend === "postgres") {
    postgres = await postgresFromEnvOrThrowaway();
    backend = await createThrowawayDatabase(postgres.url);
  }
  const store = await createNodeStore(backend?.options ?? {});
  const id = "QmQueryLatencyBench";
  await store.createDeployment({ id, schemaSdl: await readFile("schema.graphql", "utf8"), network: "localhost", startBlock: 1, manifest: "" });
  const count = Number(values.count);
  const seedStart = performance.now();
  await seedApprovals(store, id, { count, owners: Number(values.owners) });
  const seedSeconds = (performance.now() - seedStart) / 1000;
  console.log(`${values.backend}: seeded ${count} approvals in ${seedSeconds.toFixed(1)} s (${Math.round(count / seedSeconds)} entities/s through transactBlocks)`);
  // Synced: the store builds the attribute indexes now, as it does when the indexer catches up.
  const indexStart = performance.now();
  await store.setSynced(id, true);
  console.log(`${values.backend}: attribute indexes built in ${((performance.now() - indexStart) / 1000).toFixed(1)} s`);
  const server = await createQueryServer({ store, port: 0 });
  try {
    const r = await measureQueryLatency({ queryUrl: `${server.url}/subgraphs/id/${id}`, rounds: Number(values.rounds) });
    const fmt = (f: { p50: number; p99: number; mean: number }) => `p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, mean ${f.mean.toFixed(1)} ms`;
    console.log(`${values.backend}, ${count} entities, ${r.rounds} rounds each:`);
    console.log(`  approvalQueries(first: 1000): ${fmt(r.first1000)}`);
    console.log(`  approvalQueries(where: {owner}) (first 100 of ~${Math.round(count / Number(values.owners))}): ${fmt(r.byOwner)}`);
  } finally {
    await server.close();
    await store.close();
  }
} catch (err) {
  fail(err);
} finally {
  await backend?.cleanup();
  await postgres?.stop();
}
