// `subgraph-workbench node`: the graph-node-compatible local node on 127.0.0.1, or the real graph-node
// from npm (--engine graph-node) on the same ports. The environment and flags are in USAGE.
import "dotenv/config";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { createLocalNode, mappingLimitsFromEnv, parseForkBase, parseRpcEntry, nodeSettingsFromEnv, queryLimitsFromEnv, readGraphNodeConfig, type NetworkProviders } from "../local-node/index.js";
import { fail, parseCli } from "../cli/args.js";
import { openNodeDatabase, startGraphNodeServices } from "../node-services/index.js";
import { logStrayErrors, stopOnSignals } from "../cli/processGuards.js";
import { startChildReaper } from "../cli/childReaper.js";
import { defaultSubgraphName, findSubgraph } from "../cli/subgraphFolder.js";
import { existsSync } from "node:fs";
import { formatProfileTable } from "../lib/handlerProfileTable.js";
import { createProgressBoard } from "../lib/catchUpProgress.js";

const USAGE = `Usage: subgraph-workbench node [options]

The graph-node-compatible local node, on graph-node's ports: GraphQL queries and GraphiQL on 8000, the
admin JSON-RPC (graph create/deploy) on 8020, IPFS on 5001, the index-node status API on 8030.
Entities live in embedded PGlite under .data/local-node unless --postgres or DATABASE_URL says otherwise.

Options:
  --ethereum-rpc <[network:]url>  a chain's JSON-RPC; repeat for several networks, or for several
                                  providers of one network (default ETHEREUM_RPC, else
                                  http://127.0.0.1:8545 for every network)
  --config <config.toml>          graph-node's configuration file: its [chains.<name>] providers
                                  (provider = [{ label, url, features }], $VAR in a URL read from the
                                  environment); the rest of the file is left to graph-node
  --rpc-concurrency <n>           requests in flight per provider (default 32)
  --rpc-rate <n>                  requests per second per provider (default unlimited)
  --engine <local|graph-node>     graph-node runs the real graph-node from npm (gnd dev) on ./build
  --postgres                      a real PostgreSQL server from npm (cluster in .data/postgres)
  --data-dir <dir>                the node's files (default LOCAL_NODE_DATA, else .data/local-node)
  --postgres-dir <dir>            the --postgres cluster's folder (default .data/postgres)
  --query-port, --admin-port, --ipfs-port, --status-port <n>
  --metrics-port <n>              graph-node's Prometheus metrics (default 8040, at /metrics)
  --events-per-run <n>            events the indexer hands to the mappings at a time
  --chain-cache                   keep logs, blocks and eth_call answers for re-indexing
  --fork-base <url>               graph-node's debug forks: a deployment deployed with a debug fork
                                  (graph deploy --debug-fork <id>) reads the entities it has not
                                  written from <url><id>, e.g. http://127.0.0.1:8000/subgraphs/id/
                                  (default GRAPH_FORK_BASE)
  --name <name>                   with --engine graph-node: the subgraph's name (default SUBGRAPH_NAME,
                                  else local/<package name>)
  --profile                       also print each deployment's handler profile when the node stops
                                  (it is printed when a catch-up ends, and served at
                                  /_workbench/api/profile/<id> on the query port)
  --debug                         debug-level log lines
  -h, --help                      this help

Environment: ETHEREUM_RPC, DATABASE_URL, LOCAL_NODE_DATA, IPFS_URL (an IPFS API asked for files the node
lacks), GRAPH_* limits (GRAPH_GRAPHQL_MAX_DEPTH, ...), read from .env too.

Examples:
  npx subgraph-workbench node
  npx subgraph-workbench node --ethereum-rpc mainnet:http://127.0.0.1:8545 --postgres
  npx subgraph-workbench node --ethereum-rpc mainnet:https://a.example/KEY --ethereum-rpc mainnet:https://b.example/KEY
  npx subgraph-workbench node --config config.toml --rpc-rate 20
  graph create --node http://127.0.0.1:8020 local/my-subgraph
  graph deploy --node http://127.0.0.1:8020 --ipfs http://127.0.0.1:5001 local/my-subgraph
`;

const { values } = parseCli({
  "query-port": { type: "string", default: "8000" },
  "admin-port": { type: "string", default: "8020" },
  "ipfs-port": { type: "string", default: "5001" },
  "status-port": { type: "string", default: "8030" },
  "metrics-port": { type: "string", default: "8040" },
  "data-dir": { type: "string" },
  postgres: { type: "boolean", default: false },
  engine: { type: "string", default: "local" },
  "postgres-dir": { type: "string", default: join(process.cwd(), ".data", "postgres") },
  // Repeatable, as graph-node's: `<network>:<url>`, or a bare URL for every network.
  "ethereum-rpc": { type: "string", multiple: true },
  config: { type: "string" },
  "rpc-concurrency": { type: "string" },
  "rpc-rate": { type: "string" },
  "events-per-run": { type: "string" },
  "chain-cache": { type: "boolean", default: false },
  "fork-base": { type: "string" },
  name: { type: "string" },
  debug: { type: "boolean", default: false },
  profile: { type: "boolean", default: false },
}, process.argv.slice(2), USAGE);

function port(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--${name} must be a number from 0 to 65535, got ${raw}`);
  return n;
}

if (values.engine !== "local" && values.engine !== "graph-node") fail(`--engine must be local or graph-node, got ${values.engine}`);

/** A positive number of a flag, or undefined when not given. */
function positive(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} must be a positive number, got ${raw}`);
  return n;
}
const providerLimits = { maxConcurrent: positive("rpc-concurrency", values["rpc-concurrency"]), requestsPerSecond: positive("rpc-rate", values["rpc-rate"]) };
// graph-node's config file: read and checked before anything starts (a bad file stops nothing half-started).
let configured: NetworkProviders[] | undefined;
if (values.config !== undefined) {
  try {
    configured = readGraphNodeConfig(readFileSync(values.config, "utf8"), { source: values.config, notes: (line) => console.log(line) });
  } catch (err) {
    fail(err);
  }
}
// graph-node's flag, or its environment variable; checked before anything starts.
const forkBase = values["fork-base"] ?? (process.env.GRAPH_FORK_BASE || undefined);
if (forkBase !== undefined) {
  try {
    parseForkBase(forkBase);
  } catch (err) {
    fail(err);
  }
  // gnd dev reads GRAPH_FORK_BASE itself (its launcher's option); the local node takes it as an option.
  if (values.engine === "graph-node") process.env.GRAPH_FORK_BASE = forkBase;
}

// A stray error is logged; the node keeps serving its other requests and deployments. Whatever ends
// this process, a database server or graph-node it started ends with it: the reaper (a process of its
// own, about 50 MB) runs only when there is such a child to end.
logStrayErrors();
if (values.engine === "graph-node" || values.postgres) startChildReaper();

if (values.engine === "graph-node") {
  // The real graph-node indexes the project's build (gnd dev reads build folders, it takes no IPFS deploys).
  if (!existsSync(join(process.cwd(), "build", "subgraph.yaml"))) fail("--engine graph-node indexes ./build: run graph codegen && graph build first");
  try {
    const { dir, manifest } = findSubgraph(undefined);
    const name = values.name ?? defaultSubgraphName(dir);
    const services = await startGraphNodeServices({
      ethereumRpc: parseRpcEntry(values["ethereum-rpc"]?.[0] ?? process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545").url,
      manifest,
      dataDir: join(process.cwd(), ".data"),
      ports: { query: port("query-port", values["query-port"]), admin: port("admin-port", values["admin-port"]), ipfs: port("ipfs-port", values["ipfs-port"]), status: port("status-port", values["status-port"]) },
      name,
      reset: false,
    });
    console.log(`graph-node indexes ${services.engine.deployments[0] ?? "?"} as ${name}; queries ${services.engine.urls.query}/subgraphs/name/${name}`);
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
  // Each catch-up's progress: bars in a terminal (the log goes above them), plain lines every 5 s otherwise.
  const progress = createProgressBoard({ plainEveryMs: 5_000, plainLine: (line) => console.log(line) });
  const node = await createLocalNode({
    log: (line) => progress.log(line),
    // With a config file, only the entries given beside it; without, ETHEREUM_RPC or the local chain.
    ethereumRpc: values["ethereum-rpc"] ?? (configured ? [] : (process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545")),
    ...(configured ? { ethereumProviders: configured } : {}),
    providerLimits: {
      ...(providerLimits.maxConcurrent ? { maxConcurrent: providerLimits.maxConcurrent } : {}),
      ...(providerLimits.requestsPerSecond ? { requestsPerSecond: providerLimits.requestsPerSecond } : {}),
    },
    dataDir: values["data-dir"] ?? process.env.LOCAL_NODE_DATA ?? join(process.cwd(), ".data", "local-node"),
    ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}),
    ports: {
      query: port("query-port", values["query-port"]),
      admin: port("admin-port", values["admin-port"]),
      ipfs: port("ipfs-port", values["ipfs-port"]),
      status: port("status-port", values["status-port"]),
      metrics: port("metrics-port", values["metrics-port"]),
    },
    logLevel: values.debug ? "debug" : "info",
    ...(process.env.IPFS_URL ? { ipfsUrl: process.env.IPFS_URL } : {}),
    ...nodeSettingsFromEnv(),
    queryLimits,
    mappingLimits,
    ...(values["events-per-run"] ? { eventsPerRun: port("events-per-run", values["events-per-run"]) } : {}),
    ...(values["chain-cache"] ? { chainCache: true } : {}),
    ...(forkBase !== undefined ? { forkBase } : {}),
  });
  const printProfiles = async (): Promise<void> => {
    for (const d of await node.store.listDeployments()) {
      const profile = node.indexer.profile(d.id);
      if (profile && profile.handlers.length > 0) console.log(`handler profile of ${d.id}:\n${formatProfileTable(profile.handlers)}`);
    }
  };
  const showProgress = setInterval(() => {
    void (async () => {
      for (const d of await node.store.listDeployments()) {
        if (!node.indexer.isIndexing(d.id)) continue;
        const head = (await node.indexer.chainHead(d.network))?.number ?? null;
        const latest = d.latestBlock?.number ?? null;
        // A deployment more than 10 blocks behind is catching up (graph-node's distance); its bar runs until
        // it reaches the head. One that follows the chain stays quiet.
        if (head === null || (!shownProgress.has(d.id) && latest !== null && head - latest <= 10)) continue;
        shownProgress.add(d.id);
        const events = node.indexer.profile(d.id)?.handlers.reduce((n, r) => n + r.calls, 0) ?? null;
        progress.bar(d.id, `${d.id.slice(0, 12)}… catching up:`, d.startBlock).update({ block: latest, head, events });
        if (latest !== null && latest >= head) shownProgress.delete(d.id);
      }
    })().catch(() => undefined);
  }, 1000);
  showProgress.unref();
  const shownProgress = new Set<string>();
  stopOnSignals(async () => {
    clearInterval(showProgress);
    progress.stop();
    if (values.profile) await printProfiles().catch(() => undefined);
    await node.close().then(database.stop);
  });
} catch (err) {
  fail(err);
}
