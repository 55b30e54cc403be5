// Runs one DeploymentIndexer per deployment on this node and answers the chain head for status.
import type { BlockPtr } from "../../wasm-host/index.js";
import { type ChainSet, getBlock, getHeadNumber } from "../chain/index.js";
import { createHostThreadPool, type MappingLimits } from "./hostWorkerClient.js";
import { createDeploymentIndexer, type DeploymentIndexer, type DeploymentState } from "./deploymentIndexer.js";
import type { FailureTrap, StartedFrom } from "./indexerContext.js";
import type { EntityFork, FileReader, IndexedDeployment, IndexerStore, Logger } from "./types.js";
import { createHandlerProfile, type HandlerProfile, type ProfileDelta } from "./handlerProfile.js";

export interface IndexerServiceOptions {
  store: IndexerStore;
  /** The RPC of each network (a deployment indexes from its manifest's network). */
  chains: ChainSet;
  log: Logger;
  pollIntervalMs?: number;
  eventsPerRun?: number;
  /** What a mapping may spend in its thread (handler timeout, heap); DEFAULT_MAPPING_LIMITS otherwise. */
  mappingLimits?: MappingLimits;
  /** File data sources' files (the node's IPFS). */
  readFile?: FileReader;
  /** GRAPH_DISABLE_FAIL_FAST. */
  disableFailFast?: boolean;
  /** Keep proofs of indexing (default true). */
  proofOfIndexing?: boolean;
  /** Called after each commit of a synced deployment (the node hashes its proof-of-indexing journal then). */
  afterSyncedCommit?: (id: string) => void;
  /** Called when a subgraph name switched to a newly synced deployment. */
  onVersionSwitch?: () => Promise<void> | void;
  /** Load a host thread for the next deployment whenever one syncs (see HostThreadPool). */
  keepSpareHostThread?: boolean;
}

export interface IndexerService {
  /** Starts indexing the deployment unless it already runs here; `fork`: its debug fork. */
  start(deployment: IndexedDeployment, extras?: { fork?: EntityFork }): void;
  stop(id: string): Promise<void>;
  /** Whether the deployment is being indexed here (started and not stopped). */
  isIndexing(id: string): boolean;
  stopAll(): Promise<void>;
  /** Stops every deployment and the spare host thread. */
  close(): Promise<void>;
  state(id: string): DeploymentState | null;
  /** The network's chain head (cached for a second), null when no node answers for it. */
  chainHead(network: string): Promise<BlockPtr | null>;
  /** What each handler of the deployment cost since this node started it; null when it never ran here. */
  profile(id: string): ProfileDelta | null;
  /** Where in the mapping the deployment failed (wasm frames), when it failed in this process. */
  failureTrap(id: string): FailureTrap | null;
  /** When this process first started indexing it, from which block: kept past its stops, like its profile. */
  startedFrom(id: string): StartedFrom | null;
}

export function createIndexerService(options: IndexerServiceOptions): IndexerService {
  const running = new Map<string, DeploymentIndexer>();
  const heads = new Map<string, { at: number; ptr: BlockPtr | null }>();
  // Kept past a deployment's stop, and added to again when it starts anew in this process.
  const profiles = new Map<string, HandlerProfile>();
  const firstStarts = new Map<string, StartedFrom>();
  // Started with the node, so a deployment's handlers run on a host that has already loaded.
  const hostThreads = createHostThreadPool(options.mappingLimits, { keepSpare: options.keepSpareHostThread ?? false });

  async function stopAll(): Promise<void> {
    const all = [...running.values()];
    running.clear();
    await Promise.all(all.map((i) => i.stop()));
  }

  return {
    start(deployment, extras = {}) {
      const existing = running.get(deployment.id);
      if (existing && existing.state !== "stopped") return;
      const rpc = options.chains.rpcFor(deployment.network);
      if (!rpc) {
        options.log("error", `${deployment.id}: no Ethereum RPC for network ${deployment.network}; not indexing it (give --ethereum-rpc ${deployment.network}:<url>)`);
        return;
      }
      const indexer = createDeploymentIndexer({
        store: options.store,
        rpc,
        deployment,
        log: options.log,
        hostThreads,
        profile: profiles.get(deployment.id) ?? profiles.set(deployment.id, createHandlerProfile()).get(deployment.id)!,
        ...(options.readFile ? { readFile: options.readFile } : {}),
        ...(options.disableFailFast ? { disableFailFast: true } : {}),
        ...(options.proofOfIndexing === false ? { proofOfIndexing: false } : {}),
        ...(options.afterSyncedCommit ? { afterSyncedCommit: options.afterSyncedCommit } : {}),
        ...(options.onVersionSwitch ? { onVersionSwitch: options.onVersionSwitch } : {}),
        ...(extras.fork ? { fork: extras.fork } : {}),
        ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
        ...(options.eventsPerRun === undefined ? {} : { eventsPerRun: options.eventsPerRun }),
      });
      running.set(deployment.id, indexer);
      void indexer.start();
    },
    isIndexing: (id) => running.has(id),
    async stop(id) {
      const indexer = running.get(id);
      running.delete(id);
      await indexer?.stop();
    },
    stopAll,
    async close() {
      await stopAll();
      await hostThreads.close();
    },
    state: (id) => running.get(id)?.state ?? null,
    profile: (id) => profiles.get(id)?.snapshot() ?? null,
    failureTrap: (id) => running.get(id)?.failureTrap ?? null,
    startedFrom(id) {
      const known = firstStarts.get(id);
      if (known) return known;
      const now = running.get(id)?.startedFrom ?? null;
      if (now) firstStarts.set(id, now);
      return now;
    },
    async chainHead(network) {
      const cached = heads.get(network);
      if (cached && Date.now() - cached.at < 1000) return cached.ptr;
      const rpc = options.chains.rpcFor(network);
      let ptr: BlockPtr | null = null;
      try {
        const block = rpc ? await getBlock(rpc, await getHeadNumber(rpc)) : null;
        ptr = block ? { number: block.number, hash: block.hash } : null;
      } catch {
        ptr = null;
      }
      heads.set(network, { at: Date.now(), ptr });
      return ptr;
    },
    // Nothing is asked for at start: warm() only waits for the thread loading since then.
  };
}
