// What one deployment indexer knows: its dependencies, the pieces built once (log fetcher, decoders,
// filter) and the loop's mutable state. The indexer's modules take this object explicitly.
import type { BlockPtr } from "../../wasm-host/index.js";
import { type RpcClient, createLogFetcher, createRecentBlocks } from "../chain/index.js";
import { createChainServices, type ChainServices } from "./chainServices.js";
import type { HostThreadPool, HostWorker } from "./hostWorkerClient.js";
import type { LoadedRange } from "./rangeLoader.js";
import { createLiveDataSources, type LiveDataSources } from "./liveDataSources.js";
import type { CreatedDataSource, MappingTrap } from "./hostProtocol.js";
import type { EntityFork, FileReader, IndexedDeployment, IndexerStore, Logger } from "./types.js";
import { nodeLogRecord } from "./deploymentLog.js";
import { createHandlerProfile, type HandlerProfile } from "./handlerProfile.js";

/** A deployment's deterministic failure in its mapping: where (wasm frames), in which handler and block. */
export interface FailureTrap extends MappingTrap {
  handler: string | null;
  block: number;
}

export interface StartedFrom {
  at: number;
  block: number | null;
}

export interface DeploymentIndexerOptions {
  store: IndexerStore;
  rpc: RpcClient;
  deployment: IndexedDeployment;
  log: Logger;
  /** Milliseconds between head polls once synced (default 500). */
  pollIntervalMs?: number;
  /** Events handed to the worker per run (whole blocks; default 4,000). */
  eventsPerRun?: number;
  /** First eth_getLogs span in blocks (default 10; it adapts from there). */
  initialLogRange?: number;
  /** How far back to look for a common ancestor in the store's block hashes (default 256). */
  reorgDepth?: number;
  /** Report a step that has waited this long on one thing, and keep reporting it (default 30 s). */
  slowStepMs?: number;
  /** Loaded host threads to run the handlers on; a thread is started on demand otherwise. */
  hostThreads?: HostThreadPool;
  /** Where file data sources' files come from (the node's IPFS); without it no file is ever found. */
  readFile?: FileReader;
  /** GRAPH_DISABLE_FAIL_FAST: a non-fatal error before the deployment synced does not pause it. */
  disableFailFast?: boolean;
  /** Keep graph-node's proof of indexing (default true). */
  proofOfIndexing?: boolean;
  /** Called after each commit of a synced deployment (the node hashes its proof-of-indexing journal then). */
  afterSyncedCommit?: (id: string) => void;
  /** Called when a subgraph name switched to this deployment (a pending version was promoted). */
  onVersionSwitch?: () => Promise<void> | void;
  /** The deployment's debug fork: its handlers' store reads that miss locally are answered from it. */
  fork?: EntityFork;
  /** Where the handlers' costs add up (handlerProfile.ts); a new one otherwise. */
  profile?: HandlerProfile;
  /**
   * false: no handler profile and no deployment context for the eth_rpc metrics, only to measure what
   * they cost (bench:indexing --overhead); default true.
   */
  instrumentation?: boolean;
}

export type DeploymentState = "starting" | "syncing" | "synced" | "failed" | "stopped";

export interface IndexerContext {
  readonly options: DeploymentIndexerOptions;
  readonly store: IndexerStore;
  readonly rpc: RpcClient;
  readonly deployment: IndexedDeployment;
  readonly id: string;
  readonly poll: number;
  readonly perRun: number;
  /** The caller's logger, with the deployment id in front. */
  readonly log: Logger;
  readonly startBlock: number;
  readonly recent: ReturnType<typeof createRecentBlocks>;
  readonly fetcher: ReturnType<typeof createLogFetcher>;
  readonly services: ChainServices;
  /** Static and created data sources with their decoders, and the log filter over them. */
  readonly sources: LiveDataSources;
  /** Created data sources as the store holds them (loaded at start, after a revert or an error). */
  created: CreatedDataSource[];
  /** What each handler cost so far. */
  readonly profile: HandlerProfile;
  /** Where in the mapping the deterministic failure happened (wasm frames), once it failed here. */
  failureTrap: FailureTrap | null;
  /** When this process started indexing it, and from which block (null: none indexed yet): the dashboard's averages. */
  startedFrom: StartedFrom | null;

  state: DeploymentState;
  pointer: BlockPtr | null;
  /** The chain head the current step saw. */
  head: number | null;
  synced: boolean;
  /** The status shows a non-deterministic failure (graph-node's "failed" while it retries); cleared by the next success. */
  failedNonDeterministically: boolean;
  stopping: boolean;
  /** Ends the current sleep early (set while sleeping). */
  wake: (() => void) | null;
  worker: HostWorker | null;
  // The commit in flight; store reads from handlers wait for it so they never miss a write.
  committing: Promise<void>;
  // The next log range, fetched while the current one is processed.
  prefetched: { from: number; range: Promise<LoadedRange> } | null;
  // What the loop is waiting on, and since when: a watchdog reports a step that hangs.
  phase: string;
  phaseSince: number;
}

export function createIndexerContext(options: DeploymentIndexerOptions): IndexerContext {
  const { store, rpc, deployment } = options;
  const id = deployment.id;
  const log: Logger = (level, message) => {
    options.log(level, `${id}: ${message}`);
    store.recordLog?.(id, nodeLogRecord(level, message));
  };
  const startBlock = Math.min(...deployment.dataSources.map((d) => d.startBlock), ...(deployment.subgraphDataSources ?? []).map((d) => d.startBlock));
  const recent = createRecentBlocks();
  // Small first spans so that catching up pipelines fetching with running; sparse ranges grow fast.
  // A range is held whole in memory (decoded, with its blocks) while the next one is prefetched, and its
  // eth_getLogs answer is parsed whole (the text, then every log as objects) beside the commits: ranges
  // are kept to about one worker run of logs. Up to 50,000 logs a range cost about 300 MB here; 4,000-12,000
  // instead of 2,000-4,000 peaked 12-30 MiB higher at the same rate on 100,000 approvals
  // (docs/benchmarks.md, 2026-11-29, fifteenth session).
  const perRun = options.eventsPerRun ?? 4_000;
  const fetcher = createLogFetcher({
    rpc,
    initialRange: options.initialLogRange ?? 10,
    growBelowLogs: perRun / 2,
    shrinkAboveLogs: perRun,
    // A timeout is worth a warning (a slow or overloaded node); a provider's range limit is routine.
    onShrink: (message) => log(/timed out|timeout/i.test(message) ? "warning" : "debug", message),
  });
  const services = createChainServices(rpc);
  return {
    options,
    store,
    rpc,
    deployment,
    id,
    poll: options.pollIntervalMs ?? 500,
    perRun,
    log,
    startBlock,
    recent,
    fetcher,
    services,
    sources: createLiveDataSources(deployment),
    created: [],
    profile: options.profile ?? createHandlerProfile(),
    failureTrap: null,
    startedFrom: null,
    state: "starting",
    pointer: null,
    head: null,
    synced: false,
    failedNonDeterministically: false,
    stopping: false,
    wake: null,
    worker: null,
    committing: Promise.resolve(),
    prefetched: null,
    phase: "idle",
    phaseSince: Date.now(),
  };
}
