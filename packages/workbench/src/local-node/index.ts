// The local graph-node-compatible node: store (PGlite or Postgres), IPFS, admin JSON-RPC, queries,
// index-node status and the indexer, wired together. Stored deployments resume at start.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createNodeStore, type NodeStore, type VersionSwitching } from "./store/index.js";
import { createIpfsServer, createIpfsStore, type IpfsStore } from "./ipfs/index.js";
import { loadDeployment } from "./manifest/index.js";
import { createAdminServer } from "./admin/index.js";
import { createQueryServer } from "./query-server/index.js";
import type { QueryLimits } from "./query-server/index.js";
import { createEthCallRecorder, createStatusServer, type EthCallRecorder } from "./status/index.js";
import { createChainSet, withChainCache, type NetworkProviders, type ProviderStatus, type RpcClient } from "./chain/index.js";
import { maskUrl } from "../lib/redact.js";
import { BaseError } from "../lib/errors.js";
import { claimPidFile } from "../lib/pidFile.js";
import { describeError, type FailedRequest } from "../lib/http/index.js";
import { historySettingsFromEnv, resolveHistorySettings, type HistorySettings } from "./historySettings.js";
import { createFileReader } from "./dataSourceFiles.js";
import { DEFAULT_MAPPING_LIMITS, createIndexerService, currentDeployment, markedLayer, type IndexerService, type MappingLimits } from "./indexer/index.js";
import { createProofService, type ProofService } from "./proofs/index.js";
import type { LogLevel } from "../wasm-host/index.js";
import { createDebugForkRecords, createSubgraphFork, parseForkBase } from "./fork/index.js";
import { createDashboardRoutes, createLogBuffer, createSourceMapRegistry } from "./dashboard/index.js";
import { createMetricsServer, createNodeMetrics, timedRpc } from "./metrics/index.js";

export { DEFAULT_QUERY_LIMITS, queryLimitsFromEnv, type QueryLimits } from "./query-server/index.js";
export { DEFAULT_MAPPING_LIMITS, mappingLimitsFromEnv, type MappingLimits } from "./indexer/index.js";

export { parseRpcEntry, readGraphNodeConfig, ProviderConfigError, type NetworkProviders, type ProviderStatus } from "./chain/index.js";
export { parseForkBase, ForkBaseError } from "./fork/index.js";
export { createIpfsServer, createIpfsStore, type IpfsStore } from "./ipfs/index.js";
export type { VersionSwitching } from "./store/index.js";
export type { HistorySettings } from "./historySettings.js";

/** The node could not start (its data folder is held by another node). */
export class LocalNodeError extends BaseError {
  override name = "LocalNodeError";
}

/**
 * The graph-node settings a node CLI reads from the environment, by graph-node's names:
 * GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH, EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE
 * (`instant`, the default, or `synced`), GRAPH_DISABLE_FAIL_FAST, the history settings of
 * historySettings.ts, and LOCAL_NODE_PROOF_OF_INDEXING=false (this node's own: no proofs kept).
 */
export function nodeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<LocalNodeOptions, "allowFulltextSearch" | "versionSwitching" | "history" | "disableFailFast" | "proofOfIndexing"> {
  const mode = env.EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE;
  if (mode !== undefined && mode !== "" && mode !== "instant" && mode !== "synced") {
    throw new LocalNodeError(`EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE must be instant or synced, not ${JSON.stringify(mode)}`);
  }
  return {
    ...(env.GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH === "true" ? { allowFulltextSearch: true } : {}),
    versionSwitching: mode === "synced" ? "synced" : "instant",
    history: historySettingsFromEnv(env),
    ...(env.GRAPH_DISABLE_FAIL_FAST === "true" ? { disableFailFast: true } : {}),
    ...(env.LOCAL_NODE_PROOF_OF_INDEXING === "false" ? { proofOfIndexing: false } : {}),
  };
}

export interface LocalNodePorts {
  query: number;
  admin: number;
  ipfs: number;
  status: number;
  /** graph-node's Prometheus metrics (8040 in the node command); no metrics server when absent. */
  metrics?: number;
}

export interface LocalNodeOptions {
  /**
   * Ethereum JSON-RPC: a URL every network's deployments index from, and/or `<network>:<url>` entries
   * (graph-node's `--ethereum-rpc`). A deployment whose network has no RPC is refused at deploy.
   */
  ethereumRpc: string | string[];
  /**
   * Networks and providers read from a graph-node config.toml (`readGraphNodeConfig`), beside the
   * `ethereumRpc` entries; a network named in both gets the providers of both.
   */
  ethereumProviders?: NetworkProviders[];
  /** Per provider: requests in flight at once (default 32) and requests per second (unlimited). */
  providerLimits?: { maxConcurrent?: number; requestsPerSecond?: number };
  /** PGlite data under `<dataDir>/pg`, IPFS blocks under `<dataDir>/ipfs`; in memory when undefined. */
  dataDir?: string;
  /** A Postgres server instead of PGlite. */
  databaseUrl?: string;
  /** Ports on 127.0.0.1; 0 picks a free one. */
  ports: LocalNodePorts;
  /** One line per event worth telling (deploys, sync, failures). */
  log?: (line: string) => void;
  /** Milliseconds between chain head polls once synced (default 500). */
  pollIntervalMs?: number;
  /** Events per host worker run (and per store transaction); default 4,000. */
  eventsPerRun?: number;
  /** Lowest level logged (default "info"). */
  logLevel?: LogLevel;
  /** What one GraphQL query may cost (see `queryLimitsFromEnv` for the settings); defaults otherwise. */
  queryLimits?: Partial<QueryLimits>;
  /** What a mapping may spend in its host thread (see `mappingLimitsFromEnv`); defaults otherwise. */
  mappingLimits?: Partial<MappingLimits>;
  /** An IPFS RPC API asked for file data sources' files this node's IPFS lacks (IPFS_URL). */
  ipfsUrl?: string;
  /** GRAPH_DISABLE_FAIL_FAST: a non-fatal error before a deployment synced does not pause it. */
  disableFailFast?: boolean;
  /**
   * Keep graph-node's proof of indexing (default true). false (LOCAL_NODE_PROOF_OF_INDEXING=false) saves
   * its hashing; the status API then answers proofs from what was kept before, if anything.
   */
  proofOfIndexing?: boolean;
  /** GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH: accept `@fulltext` (graph-node refuses it otherwise). */
  allowFulltextSearch?: boolean;
  /** EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE: when a new version of a name serves (default instant, as graph-node). */
  versionSwitching?: VersionSwitching;
  /** Pruning and history settings (see historySettings.ts); graph-node's defaults for those not given. */
  history?: Partial<HistorySettings>;
  /**
   * Load a host thread for the next deployment whenever one has synced, as the dev loop wants (a new
   * version on every save). Default false: the node loads one as it starts, for its first deployment,
   * and a later deployment loads its own as it starts (about 200 ms) instead of 40-50 MiB held for it.
   */
  keepSpareHostThread?: boolean;
  /**
   * Keep the chain's logs, blocks and eth_call results in the store (local-node/chain/chainCache.ts), so
   * that a re-index asks the chain only whether they are still canonical. Default false: a single
   * catch-up gains nothing from writing them; the dev loop, which re-indexes on every save, turns it on.
   */
  chainCache?: boolean;
  /**
   * graph-node's `--fork-base` (GRAPH_FORK_BASE): where a deployment deployed with `debug_fork` reads the
   * entities it has not written, `<forkBase><debug_fork id>` (e.g. `http://127.0.0.1:8000/subgraphs/id/`).
   * Without it a `debug_fork` is recorded and does nothing, as in graph-node.
   */
  forkBase?: string;
}

export interface LocalNode {
  /** `metrics`: with `ports.metrics` only. */
  urls: { query: string; admin: string; ipfs: string; status: string; metrics?: string };
  store: NodeStore;
  ipfs: IpfsStore;
  indexer: IndexerService;
  /** Hashes a deployment's proof-of-indexing journal into its digests (the status API does it before a proof). */
  proofs: ProofService;
  /** Each network's providers: which served, which failed or are skipped, and why. */
  providers(): { network: string; providers: ProviderStatus[] }[];
  close(): Promise<void>;
}

const LEVELS: LogLevel[] = ["debug", "info", "warning", "error", "critical"];

export async function createLocalNode(options: LocalNodeOptions): Promise<LocalNode> {
  const minLevel = LEVELS.indexOf(options.logLevel ?? "info");
  const write = options.log ?? ((line: string) => console.log(line));
  // The last lines, for the dashboard's log.
  const recentLines = createLogBuffer();
  const log = (level: LogLevel, message: string): void => {
    if (LEVELS.indexOf(level) < minLevel) return;
    write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(7)} ${message}`);
    recentLines.add(level, message);
  };

  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // One node per data folder: two would write the same PGlite files and IPFS blocks.
  const claim = options.dataDir ? await claimPidFile(join(options.dataDir, "node.pid")) : null;
  if (claim && "heldBy" in claim) {
    throw new LocalNodeError(`the data folder ${options.dataDir} is in use by another local node (process ${claim.heldBy}); stop it, or give this one another data folder`);
  }
  const release = async () => (claim && "release" in claim ? claim.release() : undefined);
  const history = resolveHistorySettings(options.history);
  // A malformed fork base fails the start, before anything is opened.
  const forkBase = options.forkBase === undefined ? null : parseForkBase(options.forkBase);
  // Each unexpected failure of a request (its 500) is logged once, with its cause.
  const requestFailed = (server: string) => (error: unknown, request: FailedRequest | null) =>
    log("error", `${server}: ${request ? `${request.method} ${request.path} failed` : "server error"}: ${describeError(error)}`);
  // The IPFS API listens before the store opens (a second or two for a new PGlite): graph-cli's
  // `build --ipfs` can upload while the rest of the node is still starting.
  const ipfs = await createIpfsStore(options.dataDir ? { dir: join(options.dataDir, "ipfs") } : {});
  const ipfsServer = await createIpfsServer({ ipfs, port: options.ports.ipfs, onError: requestFailed("ipfs server") }).catch(async (error: unknown) => {
    await ipfs.close().catch(() => {});
    await release();
    throw error;
  });
  const store = await createNodeStore({
    pruning: { reorgThreshold: history.reorgThreshold, slackFactor: history.slackFactor },
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.dataDir && !options.databaseUrl ? { dataDir: join(options.dataDir, "pg") } : {}),
  }).catch(async (error: unknown) => {
    await ipfsServer.close().catch(() => {});
    await ipfs.close().catch(() => {});
    await release();
    throw error;
  });
  // The proof of indexing follows the data: hashed when asked for, or once a deployment has synced.
  const proofs = createProofService({ store, log });
  // Each chain client keeps the eth_calls it made, as graph-node's call cache (the status API's cachedEthereumCalls).
  const callRecorders = new Map<RpcClient, EthCallRecorder>();
  // graph-node's metrics; the indexer's state and profiles are read at each scrape (`indexer` is set below, before any scrape).
  let indexerRef: IndexerService | null = null;
  const metrics = createNodeMetrics({
    deployments: () => store.listDeployments(),
    isIndexing: (id) => indexerRef?.isIndexing(id) ?? false,
    profile: (id) => indexerRef?.profile(id) ?? null,
    chainHead: (network) => indexerRef?.chainHead(network) ?? Promise.resolve(null),
  });
  const chains = createChainSet(
    options.ethereumRpc,
    {
      ...(options.ethereumProviders ? { configured: options.ethereumProviders } : {}),
      ...options.providerLimits,
      // A provider skipped or back is worth a line; each retried request is one at debug level.
      pool: { log: (level, message) => log(level, message) },
    },
    (pool) => {
    // Timed where requests leave the node (below the chain cache), for the eth_rpc metrics.
    const rpc = timedRpc(pool, { metrics, provider: providerLabel(pool), deployment: currentDeployment });
    const recorder = createEthCallRecorder();
    // Both sides of the cache are marked, so that a handler's profile can count the eth_calls it answered.
    const client = recorder.watch(options.chainCache ? markedLayer(withChainCache(markedLayer(rpc, "chain"), store.chainCache, (message) => log("info", message)), "cache") : rpc);
    callRecorders.set(client, recorder);
    return client;
    },
  );
  const indexer = createIndexerService({
    store,
    chains,
    log,
    readFile: createFileReader({ ipfs, log, ...(options.ipfsUrl ? { fallbackUrl: options.ipfsUrl } : {}) }),
    ...(options.disableFailFast ? { disableFailFast: true } : {}),
    ...(options.proofOfIndexing === false ? { proofOfIndexing: false } : { afterSyncedCommit: (id: string) => proofs.catchUpSoon(id) }),
    onVersionSwitch: () => stopUnassigned(),
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.eventsPerRun === undefined ? {} : { eventsPerRun: options.eventsPerRun }),
    ...(options.mappingLimits === undefined ? {} : { mappingLimits: { ...DEFAULT_MAPPING_LIMITS, ...options.mappingLimits } }),
    ...(options.keepSpareHostThread ? { keepSpareHostThread: true } : {}),
  });
  indexerRef = indexer;

  const closers: (() => Promise<void>)[] = [() => ipfsServer.close()];
  async function close(): Promise<void> {
    await indexer.close();
    await proofs.close().catch(() => {});
    for (const c of closers.reverse()) await c().catch(() => {});
    await ipfs.close().catch(() => {});
    await store.close().catch(() => {});
    await release();
  }

  // graph-node's `--node-id`: this node indexes the deployments assigned to it.
  const NODE_ID = "default";
  const manifestOptions = { supportsNetwork: (network: string) => chains.rpcFor(network) !== null, allowFulltextSearch: options.allowFulltextSearch === true };

  /**
   * graph-node's remove_unused_assignments and node assignments: a deployment no subgraph name serves or
   * waits for any more (removed, or displaced by a newer version), or one assigned to another node,
   * stops indexing here; its data stays.
   */
  async function stopUnassigned(): Promise<void> {
    for (const d of await store.listDeployments()) {
      if ((d.assigned && d.nodeId === NODE_ID) || !indexer.isIndexing(d.id)) continue;
      log("info", `${d.id}: ${d.assigned ? `assigned to node ${d.nodeId}` : "no subgraph name uses it any more"}; indexing stops here`);
      await indexer.stop(d.id);
      // Its proof-of-indexing journal is hashed all the same (it would stay in the store otherwise).
      proofs.catchUpSoon(d.id);
    }
  }

  // Which deployment forks from which, kept beside the IPFS blocks (graph-node keeps it with the deployment).
  const debugForks = createDebugForkRecords(options.dataDir ? { file: join(options.dataDir, "debug-forks.json") } : {});
  /** The deployment's debug fork, when it was deployed with one and the node has a fork base. */
  async function forkOf(loaded: { id: string; schemaSdl: string }): Promise<{ fork?: ReturnType<typeof createSubgraphFork> }> {
    const forkId = await debugForks.get(loaded.id);
    if (forkId === null) return {};
    if (forkBase === null) {
      log("warning", `${loaded.id}: deployed with debug_fork ${forkId}, but the node has no fork base (--fork-base): subgraph forking is disabled`);
      return {};
    }
    const fork = createSubgraphFork({ base: forkBase, forkId, schemaSdl: loaded.schemaSdl, log: (level, message) => log(level, `${loaded.id}: ${message}`) });
    log("info", `${loaded.id}: debug fork of ${forkId}: entities it has not written are read from ${fork.endpoint}`);
    return { fork };
  }

  async function resume(id: string): Promise<void> {
    try {
      const loaded = await loadDeployment(ipfs, id, manifestOptions);
      indexer.start(loaded, await forkOf(loaded));
    } catch (err) {
      log("error", `${id}: cannot resume: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // Source maps of the deployments' mappings, from the dev loop: traps then name their source lines.
  const sourceMaps = createSourceMapRegistry();
  // Set once the servers listen; the dashboard links to them.
  const links = { status: "", metrics: null as string | null };
  try {
    const query = await createQueryServer({
      store,
      port: options.ports.query,
      onError: requestFailed("query server"),
      ...(options.queryLimits ? { limits: options.queryLimits } : {}),
      warn: (message) => log("warning", `query server: ${message}`),
      ownPages: createDashboardRoutes({
        deployments: () => store.listDeployments(),
        versions: () => store.subgraphVersions(),
        entityCounts: (id) => store.entityCountsByType(id),
        size: (id) => store.deploymentSize(id),
        nonFatalErrors: (id) => store.nonFatalErrors(id),
        isIndexing: (id) => indexer.isIndexing(id),
        profile: (id) => indexer.profile(id),
        failureLocation: (id) => {
          const trap = indexer.failureTrap(id);
          return trap ? sourceMaps.describe(id, trap) : null;
        },
        trap: (id) => indexer.failureTrap(id),
        startedFrom: (id) => indexer.startedFrom(id),
        registerSourceMap: (id, dataSource, text) => {
          sourceMaps.register(id, dataSource, text);
          const trap = indexer.failureTrap(id);
          if (trap?.dataSource === dataSource) log("error", `${id}: handler ${trap.handler ?? "?"} failed at block ${trap.block}, in the mapping at ${sourceMaps.describe(id, trap)}`);
        },
        chainHead: (network) => indexer.chainHead(network),
        logs: () => recentLines.lines(),
        links: () => links,
      }),
      onQuery: (deployment, seconds, failed) => metrics.observeQuery(deployment, seconds, failed),
    });
    closers.push(() => query.close());
    // Metrics are an aside: a metrics port in use (a second node, graph-node beside this one) costs only them.
    const metricsServer =
      options.ports.metrics === undefined
        ? null
        : await createMetricsServer({ metrics, port: options.ports.metrics, onError: requestFailed("metrics server") }).catch((err: unknown) => {
            log("warning", `no metrics served: port ${options.ports.metrics} could not be opened (${err instanceof Error ? err.message : String(err)}); give another with --metrics-port`);
            return null;
          });
    if (metricsServer) closers.push(() => metricsServer.close());
    links.metrics = metricsServer ? `${metricsServer.url}/metrics` : null;
    const status = await createStatusServer({
      store,
      port: options.ports.status,
      chainHead: (network) => indexer.chainHead(network),
      onError: requestFailed("status server"),
      providers: () => chains.providers(),
      proofsThrough: (id, block) => proofs.catchUp(id, block),
      // As graph-node's chain map: only the networks the node's deployments index answer.
      chainReaders: async (network) => {
        const client = (await store.listDeployments()).some((d) => d.network === network) ? chains.rpcFor(network) : null;
        const recorder = client ? callRecorders.get(client) : undefined;
        return client ? { request: (method, params) => client.request(method, params), callsAt: (n) => recorder?.callsAt(n) ?? [] } : null;
      },
    });
    closers.push(() => status.close());
    links.status = `${status.url}/graphql`;
    const admin = await createAdminServer({
      store,
      ipfs,
      port: options.ports.admin,
      queryPort: Number(new URL(query.url).port),
      manifestOptions,
      versionSwitching: options.versionSwitching ?? "instant",
      historyBlocks: history,
      async onDeploy(loaded, name, versionLabel, request) {
        log("info", `deployed ${name}${versionLabel ? ` (${versionLabel})` : ""}: ${loaded.id}`);
        if (request.debugFork !== null && request.newDeployment) await debugForks.record(loaded.id, request.debugFork);
        indexer.start(loaded, await forkOf(loaded));
        await stopUnassigned();
      },
      onRemove: () => stopUnassigned(),
      async onReassign(id, node) {
        if (node === NODE_ID) await resume(id);
        else await stopUnassigned();
      },
      onPause: (id) => indexer.stop(id),
      onResume: (id) => resume(id),
      log: (level, message) => log(level, `admin: ${message}`),
    });
    closers.push(() => admin.close());

    for (const d of await store.listDeployments()) {
      // A deterministic failure is final; a non-deterministic one is retried; no name, no indexing.
      // Whatever a deployment journaled before the node stopped is hashed in the background, indexed here or not.
      proofs.catchUpSoon(d.id);
      if ((d.health === "failed" && d.fatalError?.deterministic !== false) || d.paused || !d.assigned || d.nodeId !== NODE_ID) continue;
      await resume(d.id);
    }
    const rpcs = chains.describe().map((c) => (c.network === "*" ? maskUrl(c.url) : `${c.network}: ${maskUrl(c.url)}`));
    log("info", `indexing from ${rpcs.join(", ")}; dashboard ${query.url}/ (in a browser); queries ${query.url}, admin ${admin.url}, ipfs ${ipfsServer.url}, status ${status.url}/graphql${metricsServer ? `, metrics ${metricsServer.url}/metrics` : ""}`);
    return { urls: { query: query.url, admin: admin.url, ipfs: ipfsServer.url, status: status.url, ...(metricsServer ? { metrics: metricsServer.url } : {}) }, store, ipfs, indexer, proofs, providers: () => chains.providers(), close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** graph-node's provider label for the metrics: the network's one provider's label, or the network's name when it has several. */
function providerLabel(client: RpcClient): string {
  const pool = client as Partial<{ network: string; providers(): { label: string }[] }>;
  const providers = pool.providers?.() ?? [];
  return providers.length === 1 ? providers[0]!.label : (pool.network ?? "unknown");
}
