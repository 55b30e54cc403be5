// `npm run bench:indexing [-- --counts 10000,100000 --backends pglite,postgres --poi on|off --spec-version 0.0.5 --overhead N]`: indexing throughput,
// peak memory and query latency of the local node. `-- --factory [--events N --pools M]`: one created
// data source against M of them, with the same N events. Postgres runs use DATABASE_URL, else an embedded server.
import { overheadSummary, runIndexingBench, type BenchBackend } from "../../packages/workbench/src/local-node/e2e/indexing.bench.js";
import { runFactoryBench } from "../../packages/workbench/src/local-node/e2e/factoryIndexing.bench.js";
import { postgresFromEnvOrThrowaway } from "subgraph-workbench/lib/embedded-postgres";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  counts: { type: "string", default: "10000,100000" },
  backends: { type: "string", default: "pglite,postgres" },
  rounds: { type: "string", default: "50" },
  // off: without the proof of indexing (LOCAL_NODE_PROOF_OF_INDEXING=false), to see what it costs.
  poi: { type: "string", default: "on" },
  // 0.0.6 or later: the proof of indexing with graph-node's fast hasher instead of the legacy one.
  "spec-version": { type: "string", default: "0.0.5" },
  // The factory case: the same events from one created data source, then spread over --pools of them.
  factory: { type: "boolean", default: false },
  events: { type: "string", default: "20000" },
  pools: { type: "string", default: "1000" },
  // N: what the handler profile and graph-node's metrics cost, N runs with and N without, alternated.
  overhead: { type: "string", default: "0" },
});

if (values.factory) {
  try {
    const figures = await runFactoryBench({ events: Number(values.events), pools: Number(values.pools), log: (line) => console.log(line) });
    console.log(JSON.stringify(figures, null, 2));
  } catch (err) {
    fail(err);
  }
  process.exit(0);
}

try {
  const backends = values.backends.split(",").filter(Boolean) as BenchBackend[];
  const postgres = backends.includes("postgres") ? await postgresFromEnvOrThrowaway() : null;
  if (postgres?.embedded) console.log("DATABASE_URL is not set: the Postgres runs use an embedded PostgreSQL server");
  try {
    const figures = await runIndexingBench({
      counts: values.counts.split(",").map(Number),
      backends,
      queryRounds: Number(values.rounds),
      proofOfIndexing: values.poi !== "off",
      specVersion: values["spec-version"],
      overheadPairs: Number(values.overhead),
      ...(postgres ? { databaseUrl: postgres.url } : {}),
      log: (line) => console.log(line),
    });
    console.log(JSON.stringify(figures, null, 2));
    for (const line of overheadSummary(figures)) console.log(line);
  } finally {
    await postgres?.stop();
  }
} catch (err) {
  fail(err);
}
