// Indexes one deployment: from its start block (or stored pointer) to the chain head and then
// following it. Each block's changes are committed with the block pointer in one store transaction;
// reorgs revert to the common ancestor; a deterministic handler failure marks the deployment failed.
import type { BlockPtr } from "../../wasm-host/index.js";
import { type RpcClient, getBlock, getHeadNumber, createLogFetcher, type LogFilter, createRecentBlocks, findCommonAncestor } from "../chain/index.js";
import { maskUrl } from "../../lib/redact.js";
import { createChainServices } from "./chainServices.js";
import { createLogDecoder } from "./decode.js";
import { createHostWorker, type HostThreadPool, type HostWorker } from "./hostWorkerClient.js";
import type { BlockJob, BlockResult } from "./hostProtocol.js";
import { loadRange, type LoadedRange, type LoaderDataSource } from "./rangeLoader.js";
import { allEntityIds } from "./entityIds.js";
import { contextToEntity } from "./manifestContext.js";
import type { IndexedDeployment, IndexerStore, Logger } from "./types.js";
import { IndexerError } from "./errors.js";

export interface DeploymentIndexerOptions {
  store: IndexerStore;
  rpc: RpcClient;
  deployment: IndexedDeployment;
  log: Logger;
  /** Milliseconds between head polls once synced (default 500). */
  pollIntervalMs?: number;
  /** Events handed to the worker per run (whole blocks; default 4,000). */
  eventsPerRun?: number;
  /** First eth_getLogs span in blocks (default 100; it adapts from there). */
  initialLogRange?: number;
  /** How far back to look for a common ancestor in the store's block hashes (default 256). */
  reorgDepth?: number;
  /** Report a step that has waited this long on one thing, and keep reporting it (default 30 s). */
  slowStepMs?: number;
  /** Loaded host threads to run the handlers on; a thread is started on demand otherwise. */
  hostThreads?: HostThreadPool;
}

export type DeploymentState = "starting" | "syncing" | "synced" | "failed" | "stopped";

export interface DeploymentIndexer {
  readonly id: string;
  readonly state: DeploymentState;
  readonly pointer: BlockPtr | null;
  /** Starts the loop; resolves when it ends (stop, failure). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A deterministic handler failure: the deployment stops for good. */
class DeploymentFailed extends Error {}

export function createDeploymentIndexer(options: DeploymentIndexerOptions): DeploymentIndexer {
  const { store, rpc, deployment } = options;
  const id = deployment.id;
  const poll = options.pollIntervalMs ?? 500;
  const perRun = options.eventsPerRun ?? 4_000;
  const log: Logger = (level, message) => options.log(level, `${id}: ${message}`);
  const startBlock = Math.min(...deployment.dataSources.map((d) => d.startBlock));
  const recent = createRecentBlocks();
  // Small first spans so that catching up pipelines fetching with running; sparse ranges grow fast.
  const fetcher = createLogFetcher({
    rpc,
    initialRange: options.initialLogRange ?? 100,
    // A timeout is worth a warning (a slow or overloaded node); a provider's range limit is routine.
    onShrink: (message) => log(/timed out|timeout/i.test(message) ? "warning" : "debug", message),
  });
  const services = createChainServices(rpc);

  const loaderSources: LoaderDataSource[] = deployment.dataSources.map((ds) => ({
    address: ds.address?.toLowerCase() ?? null,
    startBlock: ds.startBlock,
    endBlock: ds.endBlock ?? null,
    decoder: createLogDecoder(ds.abis[ds.abiName] ?? [], ds.eventHandlers),
  }));
  const filter: LogFilter = {
    addresses: loaderSources.some((d) => d.address === null) ? [] : [...new Set(loaderSources.map((d) => d.address!))],
    topic0s: [...new Set(deployment.dataSources.flatMap((d) => d.eventHandlers.map((h) => h.topic0.toLowerCase())))],
  };

  let state: DeploymentState = "starting";
  let pointer: BlockPtr | null = null;
  let synced = false;
  let stopping = false;
  let wake: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let worker: HostWorker | null = null;
  // The commit in flight; store reads from handlers wait for it so they never miss a write.
  let committing: Promise<void> = Promise.resolve();
  // The next log range, fetched while the current one is processed.
  let prefetched: { from: number; range: Promise<LoadedRange> } | null = null;
  // What the loop is waiting on, and since when: a watchdog reports a step that hangs.
  let phase = "idle";
  let phaseSince = Date.now();
  function enter(next: string): void {
    phase = next;
    phaseSince = Date.now();
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => ((wake = null), resolve()), ms);
      wake = () => (clearTimeout(t), (wake = null), resolve());
    });
  }

  async function startWorker(): Promise<HostWorker> {
    return createHostWorker({
      ...(options.hostThreads ? { thread: options.hostThreads.take() } : {}),
      schemaSdl: deployment.schemaSdl,
      dataSources: deployment.dataSources.map((ds) => ({
        name: ds.name,
        wasmModule: ds.wasmModule,
        apiVersion: ds.apiVersion,
        address: ds.address?.toLowerCase() ?? "",
        network: ds.network,
        context: contextToEntity(ds.context),
        templates: (deployment.templates ?? []).map((t) => t.name),
      })),
      log,
      services: {
        getEntity: async (type, eid) => (await committing, store.getEntity(id, type, eid)),
        entityIds: async (type) => (await committing, allEntityIds(store, id, type)),
        getDerived: async (type, field, eid) => (await committing, store.getDerived ? store.getDerived(id, type, field, eid) : []),
        ethereumCall: services.ethereumCall,
        getBalance: services.getBalance,
        hasCode: services.hasCode,
      },
    });
  }

  async function markSynced(): Promise<void> {
    if (state !== "synced") log("info", `synced at block ${pointer?.number ?? startBlock - 1}`);
    state = "synced";
    if (!synced) {
      await store.setSynced(id, true);
      synced = true;
    }
    await store.promoteIfSynced(id);
  }

  /** One database transaction for a group of blocks, with their hashes for later reorg checks. */
  async function commitResults(results: BlockResult[]): Promise<void> {
    if (results.length === 0) return;
    const ptrs = results.map((r) => ({ number: r.ptr.number, hash: r.ptr.hash }));
    // The store records each committed block's hash itself (for later reorg checks).
    await store.transactBlocks(id, results.map((r) => ({ block: r.ptr, changes: r.changes })));
    for (const p of ptrs) recent.add(p);
    pointer = ptrs[ptrs.length - 1]!;
  }

  /** Runs the jobs on the worker in groups, committing group k while the worker runs group k+1. */
  async function runJobs(jobs: BlockJob[]): Promise<void> {
    const groups: BlockJob[][] = [];
    let group: BlockJob[] = [];
    let count = 0;
    for (const job of jobs) {
      group.push(job);
      count += job.triggers.length;
      if (count >= perRun) (groups.push(group), (group = []), (count = 0));
    }
    if (group.length > 0) groups.push(group);
    try {
      for (const g of groups) {
        enter(`running handlers for blocks ${g[0]!.ptr.number}-${g[g.length - 1]!.ptr.number}`);
        const { results, failure } = await worker!.run(g);
        enter(`committing blocks up to ${results[results.length - 1]?.ptr.number ?? "-"}`);
        await committing;
        committing = commitResults(results);
        if (failure) {
          await committing;
          if (!failure.deterministic) throw new IndexerError(`handler ${failure.handler ?? "?"} failed at block ${failure.block.number}: ${failure.message}`);
          log("error", `handler ${failure.handler ?? "?"} failed at block ${failure.block.number}: ${failure.message}`);
          await store.markFailed(id, failure);
          throw new DeploymentFailed(failure.message);
        }
      }
    } finally {
      await committing.catch(() => {});
    }
    await committing;
  }

  async function handleReorg(): Promise<void> {
    prefetched = null;
    const from = pointer!;
    let ancestor = await findCommonAncestor({ rpc, known: recent.list() });
    if (!ancestor) {
      const stored = [];
      for (let n = from.number - 1; n >= Math.max(startBlock, from.number - (options.reorgDepth ?? 256)); n--) {
        const hash = await store.recentBlockHash(id, n);
        if (hash) stored.push({ number: n, hash });
      }
      ancestor = await findCommonAncestor({ rpc, known: stored });
    }
    let target = ancestor;
    if (!target && startBlock > 0) {
      const before = await getBlock(rpc, startBlock - 1);
      if (before) target = { number: before.number, hash: before.hash };
    }
    target ??= { number: -1, hash: "0x" };
    log("warning", `reorg: block ${from.number} (${from.hash.slice(0, 10)}) is no longer canonical; reverting to ${target.number}`);
    await store.revertTo(id, target);
    recent.truncateAbove(target.number);
    pointer = target.number >= 0 ? target : null;
    await worker!.reset();
  }

  function fetchRange(from: number, head: number): Promise<LoadedRange> {
    const p = fetcher.next(from, head, filter).then((chunk) => loadRange(rpc, loaderSources, chunk.logs, chunk.toBlock));
    p.catch(() => {}); // a failed prefetch is simply fetched again
    return p;
  }

  /** The range starting at `from`: the prefetched one if its last block is still canonical. */
  async function takeRange(from: number, head: number): Promise<LoadedRange> {
    const ahead = prefetched;
    prefetched = null;
    if (ahead && ahead.from === from) {
      const range = await ahead.range.catch(() => null);
      // Hashes chain: if the range's last block is unchanged, so is every block before it.
      if (range && (await getBlock(rpc, range.end.number))?.hash === range.end.hash) return range;
    }
    return fetchRange(from, head);
  }

  /** One round: reorg check, then one log range. Returns false when there was nothing to do. */
  async function step(): Promise<boolean> {
    enter("reading the chain head");
    const head = await getHeadNumber(rpc);
    if (pointer && pointer.number >= startBlock - 1) {
      enter(`checking block ${pointer.number} for a reorg`);
      const current = await getBlock(rpc, pointer.number);
      if (!current || current.hash !== pointer.hash) {
        await handleReorg();
        return true;
      }
    }
    const from = pointer ? pointer.number + 1 : startBlock;
    if (from > head) {
      await markSynced();
      return false;
    }
    if (state !== "syncing" && state !== "synced") log("info", `indexing from block ${from} (head ${head})`);
    if (state === "starting") state = "syncing";
    enter(`fetching logs from block ${from}`);
    const range = await takeRange(from, head);
    log("debug", `blocks ${from}-${range.end.number}: ${range.jobs.reduce((n, j) => n + j.triggers.length, 0)} triggers`);
    // Fetch the next range while this one runs and commits.
    if (range.end.number < head) prefetched = { from: range.end.number + 1, range: fetchRange(range.end.number + 1, head) };
    await runJobs(range.jobs);
    enter(`committing the pointer at block ${range.end.number}`);
    if (!pointer || pointer.number < range.end.number) {
      const end = { number: range.end.number, hash: range.end.hash };
      await store.transact(id, range.end, []);
      pointer = end;
      recent.add(end);
    }
    if (pointer.number >= head) await markSynced();
    return true;
  }

  async function loop(): Promise<void> {
    const rec = await store.getDeployment(id);
    if (!rec) throw new IndexerError(`deployment ${id} is not in the store`);
    if (rec.health === "failed") {
      state = "failed";
      log("info", "deployment has failed before; not indexing it");
      return;
    }
    pointer = rec.latestBlock;
    synced = rec.synced;
    if (pointer) recent.add(pointer);
    worker = await startWorker();
    let failures = 0;
    const slowMs = options.slowStepMs ?? 30_000;
    const watchdog = setInterval(() => {
      const waited = Date.now() - phaseSince;
      if (phase !== "idle" && waited >= slowMs) log("warning", `still ${phase} after ${(waited / 1000).toFixed(1)} s; worker: ${worker?.describe() ?? "none"}`);
    }, Math.min(10_000, slowMs / 2));
    watchdog.unref();
    try {
      while (!stopping) {
        try {
          const busy = await step();
          enter("idle");
          failures = 0;
          if (!busy && !stopping) await sleep(poll);
        } catch (err) {
          if (err instanceof DeploymentFailed) {
            state = "failed";
            return;
          }
          failures++;
          const wait = Math.min(30_000, 250 * 2 ** Math.min(failures, 7));
          log("warning", `retrying in ${wait} ms: ${(err as Error).message}`);
          // Start again from what the store holds; the worker's cache may be ahead of it.
          enter("resetting after an error");
          committing = Promise.resolve();
          prefetched = null;
          const again = await store.getDeployment(id).catch(() => null);
          if (again) pointer = again.latestBlock;
          await worker.reset().catch(async () => {
            await worker?.terminate();
            worker = await startWorker();
          });
          // The backoff is a chosen wait, not a stuck step.
          enter("idle");
          if (!stopping) await sleep(wait);
        }
      }
    } finally {
      clearInterval(watchdog);
      await worker?.terminate();
      worker = null;
      if (state !== "failed") state = "stopped";
    }
  }

  return {
    id,
    get state() {
      return state;
    },
    get pointer() {
      return pointer;
    },
    start() {
      running ??= loop().catch((err: unknown) => {
        state = "stopped";
        log("error", `indexing stopped: ${err instanceof Error ? err.message : String(err)} (rpc ${maskUrl(rpc.displayUrl)})`);
      });
      return running;
    },
    async stop() {
      stopping = true;
      wake?.();
      await running;
    },
  };
}
