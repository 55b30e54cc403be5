// `npm run real-subgraph -- <name> --source <checkout> [--engine local|graph-node|both] [--rev <commit>]
// [--store pglite|postgres] [--pairs N --trades M]`:
// a real public subgraph, unchanged but for its network config, indexed on a fresh Hardhat chain over
// its protocol's npm artifacts and checked against the chain (parity/real-subgraphs/). The checkout is
// a clone of the subgraph's repository (or a bare mirror of it); it is copied to a scratch folder. With
// `--store postgres` the local node stores entities in PostgreSQL (DATABASE_URL's server, or one from npm).
// `--pairs`/`--trades` run the scaled scenario (uniswap-v2: that many pairs and router calls on them).
import { resolve } from "node:path";
import { dropDatabase, ensureDatabase, postgresFromEnvOrThrowaway } from "subgraph-workbench/lib/embedded-postgres";
import { KNOWN_DIFFERENCES, readAcceptedDifferences } from "subgraph-workbench/parity";
import { formatRealSubgraphReport, parseScale, realSubgraphPassed, realSubgraphs, runRealSubgraph, type EngineChoice } from "../testing/real-subgraphs/index.js";
import { projectRoot } from "../hardhat/projectRoot.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values, positionals } = parseCli({
  source: { type: "string" },
  engine: { type: "string", default: "both" },
  rev: { type: "string" },
  store: { type: "string", default: "pglite" },
  pairs: { type: "string" },
  trades: { type: "string" },
});

const known = realSubgraphs();
const names = known.map((s) => `${s.name} (github.com/${s.upstream.repository})`).join(", ");
const subgraph = known.find((s) => s.name === positionals[0]);
if (!subgraph) fail(positionals[0] ? `no real subgraph named ${positionals[0]}; known: ${names}` : `name a subgraph: ${names}`);
if (!values.source) fail(`--source <dir>: a checkout of ${subgraph.upstream.repository} (git clone https://github.com/${subgraph.upstream.repository}; checks written against ${subgraph.upstream.commit})`);
const engine = values.engine as EngineChoice;
if (!["local", "graph-node", "both"].includes(engine)) fail(`--engine must be local, graph-node or both, not ${values.engine}`);
if (!["pglite", "postgres"].includes(values.store)) fail(`--store must be pglite or postgres, not ${values.store}`);
const scale = (() => {
  try {
    return parseScale(values);
  } catch (error) {
    return fail(error);
  }
})();
if (scale && !subgraph.scalable) fail(`${subgraph.name} has no scaled scenario; --pairs and --trades are for ${known.filter((s) => s.scalable).map((s) => s.name).join(", ")}`);

const postgres = values.store === "postgres" ? await postgresFromEnvOrThrowaway().catch((error: unknown) => fail(error)) : null;
const database = `real_${subgraph.name.replace(/\W/g, "_")}_${process.pid}`;
// A throwaway server goes with its data; on DATABASE_URL's server only the run's database is dropped.
const cleanUp = async () => (postgres?.embedded ? postgres.stop() : postgres ? dropDatabase(postgres.url, database) : undefined);
let passed = false;
try {
  const databaseUrl = postgres ? await ensureDatabase(postgres.url, database) : undefined;
  const accepted = [...KNOWN_DIFFERENCES, ...(await readAcceptedDifferences(resolve(projectRoot, "testing", "parity", "accepted-differences.json")))];
  const report = await runRealSubgraph(subgraph, { source: values.source, engines: engine, accepted, ...(scale ? { scale } : {}), ...(values.rev ? { rev: values.rev } : {}), ...(databaseUrl ? { databaseUrl } : {}), log: (line) => console.log(line), progress: true });
  console.log(formatRealSubgraphReport(report));
  passed = realSubgraphPassed(report);
} catch (error) {
  await cleanUp().catch(() => undefined);
  fail(error);
}
await cleanUp();
process.exit(passed ? 0 : 1);
