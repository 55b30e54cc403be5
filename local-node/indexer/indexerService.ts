// Runs one DeploymentIndexer per deployment on this node and answers the chain head for status.
import type { BlockPtr } from "../../wasm-host/index.js";
import { type RpcClient, getBlock, getHeadNumber } from "../chain/index.js";
import { createHostThreadPool } from "./hostWorkerClient.js";
import { createDeploymentIndexer, type DeploymentIndexer, type DeploymentState } from "./deploymentIndexer.js";
import type { IndexedDeployment, IndexerStore, Logger } from "./types.js";

export interface IndexerServiceOptions {
  store: IndexerStore;
  rpc: RpcClient;
  log: Logger;
  pollIntervalMs?: number;
  eventsPerRun?: number;
}

export interface IndexerService {
  /** Starts indexing the deployment unless it already runs here. */
  start(deployment: IndexedDeployment): void;
  stop(id: string): Promise<void>;
  stopAll(): Promise<void>;
  /** Stops every deployment and the spare host thread. */
  close(): Promise<void>;
  state(id: string): DeploymentState | null;
  /** The chain head (cached for a second), null when the node does not answer. */
  chainHead(): Promise<BlockPtr | null>;
}

export function createIndexerService(options: IndexerServiceOptions): IndexerService {
  const running = new Map<string, DeploymentIndexer>();
  let head: { at: number; ptr: BlockPtr | null } = { at: 0, ptr: null };
  // Started with the node, so a deployment's handlers run on a host that has already loaded.
  const hostThreads = createHostThreadPool();

  async function stopAll(): Promise<void> {
    const all = [...running.values()];
    running.clear();
    await Promise.all(all.map((i) => i.stop()));
  }

  return {
    start(deployment) {
      const existing = running.get(deployment.id);
      if (existing && existing.state !== "stopped") return;
      const indexer = createDeploymentIndexer({
        store: options.store,
        rpc: options.rpc,
        deployment,
        log: options.log,
        hostThreads,
        ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
        ...(options.eventsPerRun === undefined ? {} : { eventsPerRun: options.eventsPerRun }),
      });
      running.set(deployment.id, indexer);
      void indexer.start();
    },
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
    async chainHead() {
      if (Date.now() - head.at < 1000) return head.ptr;
      try {
        const block = await getBlock(options.rpc, await getHeadNumber(options.rpc));
        head = { at: Date.now(), ptr: block ? { number: block.number, hash: block.hash } : null };
      } catch {
        head = { at: Date.now(), ptr: null };
      }
      return head.ptr;
    },
  };
}
