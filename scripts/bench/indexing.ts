// `npm run bench:indexing [-- --counts 10000,100000 --backends pglite,postgres]`: indexing throughput,
// peak memory and query latency of the local node. Postgres runs use DATABASE_URL, else an embedded server.
import { runIndexingBench, type BenchBackend } from "../../local-node/e2e/indexing.bench.js";
import { postgresFromEnvOrThrowaway } from "../../lib/embedded-postgres/index.js";
import { fail, parseCli } from "../lib/args.js";

const { values } = parseCli({
  counts: { type: "string", default: "10000,100000" },
  backends: { type: "string", default: "pglite,postgres" },
  rounds: { type: "string", default: "50" },
});

try {
  const backends = values.backends.split(",").filter(Boolean) as BenchBackend[];
  const postgres = backends.includes("postgres") ? await postgresFromEnvOrThrowaway() : null;
  if (postgres?.embedded) console.log("DATABASE_URL is not set: the Postgres runs use an embedded PostgreSQL server");
  try {
    const figures = await runIndexingBench({
      counts: values.counts.split(",").map(Number),
      backends,
      queryRounds: Number(values.rounds),
      ...(postgres ? { databaseUrl: postgres.url } : {}),
      log: (line) => console.log(line),
    });
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    await postgres?.stop();
  }
} catch (err) {
  fail(err);
}
