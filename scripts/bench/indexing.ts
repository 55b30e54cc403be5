// `npm run bench:indexing [-- --counts 10000,100000 --backends pglite,postgres]`: indexing throughput,
// peak memory and query latency of the local node. Postgres runs need DATABASE_URL.
import { runIndexingBench, type BenchBackend } from "../../bench/node/e2e/indexingBench.js";
import { fail, parseCli } from "../lib/args.js";

const { values } = parseCli({
  counts: { type: "string", default: "10000,100000" },
  backends: { type: "string", default: "pglite,postgres" },
  rounds: { type: "string", default: "50" },
});

try {
  const backends = values.backends.split(",").filter(Boolean) as BenchBackend[];
  if (backends.includes("postgres") && !process.env.DATABASE_URL) console.log("DATABASE_URL is not set: skipping the Postgres runs");
  const figures = await runIndexingBench({
    counts: values.counts.split(",").map(Number),
    backends,
    queryRounds: Number(values.rounds),
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(figures, null, 2));
} catch (err) {
  fail(err);
}
