// `npm run local-node`: the graph-node-compatible local node on 127.0.0.1.
// Env: ETHEREUM_RPC (default http://127.0.0.1:8545), DATABASE_URL (else embedded PGlite, or with
// --postgres a PostgreSQL server from npm with its cluster in .data/postgres), LOCAL_NODE_DATA (default
// .data/local-node), IPFS_URL (an IPFS RPC API asked for file data sources' files the node lacks).
// Flags override the ports and the data dirs.
import "dotenv/config";
import { join } from "node:path";
import { createLocalNode, mappingLimitsFromEnv, parseRpcEntry, nodeSettingsFromEnv, queryLimitsFromEnv } from "../local-node/index.js";
import { fail, parseCli } from "../cli/args.js";
import { openNodeDatabase } from "../node-services/nodeDatabase.js";
import { startGraphNodeServices } from "../node-services/graphNodeEngine.js";
import { logStrayErrors, stopOnSignals } from "../cli/processGuards.js";
import { startChildReaper } from "../cli/childReaper.js";
import { subgraphName } from "../../../../clients/subgraph/index.js";
import { existsSync } from "node:fs";

const { values } = parseCli({
  "query-port": { type: "string", default: "8000" },
  "admin-port": { type: "string", default: "8020" },
  "ipfs-port": { type: "string", default: "5001" },
  "status-port": { type: "string", default: "8030" },
  "data-dir": { type: "string" },
  postgres: { type: "boolean", default: false },
  engine: { type: "string", default: "local" },
  "postgres-dir": { type: "string", default: join(process.cwd(), ".data", "postgres") },
  // Repeatable, as graph-node's: `<network>:<url>`, or a bare URL for every network.
  "ethereum-rpc": { type: "string", multiple: true },
  "events-per-run": { type: "string" },
  "chain-cache": { type: "boolean", default: false },
  debug: { type: "boolean", default: false },
});

function port(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--${name} must be a number from 0 to 65535, got ${raw}`);
  return n;
}

if (values.engine !== "local" && values.engine !== "graph-node") fail(`--engine must be local or graph-node, got ${values.engine}`);

// A stray error is logged; the node keeps serving its other requests and deployments. Whatever ends
// this process, a database server or graph-node it started ends with it: the reaper (a process of its
// own, about 50 MB) runs only when there is such a child to end.
logStrayErrors();
if (values.engine === "graph-node" || values.postgres) startChildReaper();

if (values.engine === "graph-node") {
  // The real graph-node indexes the project's build (gnd dev reads build folders, it takes no IPFS deploys).
  if (!existsSync(join(process.cwd(), "build", "subgraph.yaml"))) fail("--engine graph-node indexes ./build: run npm run codegen && npm run build first");
  try {
    const services = await startGraphNodeServices({
      ethereumRpc: parseRpcEntry(values["ethereum-rpc"]?.[0] ?? process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545").url,
      manifest: join(process.cwd(), "subgraph.yaml"),
      dataDir: join(process.cwd(), ".data"),
      ports: { query: port("query-port", values["query-port"]), admin: port("admin-port", values["admin-port"]), ipfs: port("ipfs-port", values["ipfs-port"]), status: port("status-port", values["status-port"]) },
      name: subgraphName(),
      reset: false,
    });
    console.log(`graph-node indexes ${services.engine.deployments[0] ?? "?"} as ${subgraphName()}; queries ${services.engine.urls.query}/subgraphs/name/${subgraphName()}`);
    stopOnSignals(services.close);
  } catch (err) {
    fail(err);
  }
} else try {
  // GRAPH_GRAPHQL_MAX_DEPTH, GRAPH_GRAPHQL_QUERY_TIMEOUT, ... (local-node/README.md, "Limits and safety"),
  // read before anything starts, so a malformed value stops nothing half-started.
  const queryLimits = queryLimitsFromEnv(process.env);
  const mappingLimits = mappingLimitsFromEnv(process.env);
  const database = await openNodeDatabase({ postgres: values.postgres, postgresDir: values["postgres-dir"] });
  console.log(`store: ${database.describe}`);
  const node = await createLocalNode({
    ethereumRpc: values["ethereum-rpc"] ?? process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545",
    dataDir: values["data-dir"] ?? process.env.LOCAL_NODE_DATA ?? join(process.cwd(), ".data", "local-node"),
    ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}),
    ports: {
      query: port("query-port", values["query-port"]),
      admin: port("admin-port", values["admin-port"]),
      ipfs: port("ipfs-port", values["ipfs-port"]),
      status: port("status-port", values["status-port"]),
    },
    logLevel: values.debug ? "debug" : "info",
    ...(process.env.IPFS_URL ? { ipfsUrl: process.env.IPFS_URL } : {}),
    ...nodeSettingsFromEnv(),
    queryLimits,
    mappingLimits,
    ...(values["events-per-run"] ? { eventsPerRun: port("events-per-run", values["events-per-run"]) } : {}),
    ...(values["chain-cache"] ? { chainCache: true } : {}),
  });
  stopOnSignals(() => node.close().then(database.stop));
} catch (err) {
  fail(err);
}
