// The indexer's main loop: each step checks the head and the pointer's block (reorg), then indexes one
// log range; errors back off and restart from what the store holds.
import { getBlock, getHeadNumber, ProvidersUnavailableError } from "../chain/index.js";
import type { IndexerContext } from "./indexerContext.js";
import { startWorker } from "./hostWorkerStart.js";
import { DeploymentFailed, DeploymentPaused, noteCommitted, runJobs } from "./jobRunner.js";
import { prefetchRange, takeFollowingRange, takeRange } from "./rangePrefetch.js";
import type { LoadedRange } from "./rangeLoader.js";
import type { BlockJob } from "./hostProtocol.js";
import { handleReorg } from "./reorgHandling.js";
import { loadCreatedTriggers, reloadCreated, waitingFiles } from "./createdDataSources.js";
import { mergeJobs } from "./jobMerge.js";
import { enterPhase, startWatchdog } from "./watchdog.js";
import { IndexerError } from "./errors.js";
import { workerDataSourceCount } from "./sourceTriggers.js";
import { isComposed, sourcesHead } from "./sourceTriggers.js";
import { formatProfileTable } from "../../lib/handlerProfileTable.js";

/** Waits `ms`, or until stop() wakes it. */
function sleep(ctx: IndexerContext, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(() => ((ctx.wake = null), resolve()), ms);
    ctx.wake = () => (clearTimeout(t), (ctx.wake = null), resolve());
  });
}

async function markSynced(ctx: IndexerContext): Promise<void> {
  if (ctx.state !== "synced") {
    ctx.log("info", `synced at block ${ctx.pointer?.number ?? ctx.startBlock - 1}`);
    // The catch-up's handler profile, to the node's log only (not the deployment's `_logs`).
    const { handlers } = ctx.profile.snapshot();
    if (handlers.length > 0) ctx.options.log("info", `${ctx.id}: handler profile of the catch-up:\n${formatProfileTable(handlers)}`);
    // Caught up: the next deployment's host thread may load once the node is quiet.
    ctx.options.hostThreads?.replenish();
  }
  ctx.state = "synced";
  if (!ctx.synced) {
    await ctx.store.setSynced(ctx.id, true);
    ctx.synced = true;
  }
  // A name that switched to this deployment may leave its old one unused (graph-node unassigns it).
  if (await ctx.store.promoteIfSynced(ctx.id)) await ctx.options.onVersionSwitch?.();
}

/** One round: reorg check, then one log range. Returns false when there was nothing to do. */
async function step(ctx: IndexerContext): Promise<boolean> {
  const { rpc, startBlock } = ctx;
  enterPhase(ctx, "reading the chain head");
  const chainHead = await getHeadNumber(rpc);
  // A composed deployment follows its sources: as far as all of them have indexed.
  const head = isComposed(ctx.deployment) ? await sourcesHead(ctx, chainHead) : chainHead;
  if (head === null) return false;
  ctx.head = head;
  if (ctx.pointer && ctx.pointer.number >= startBlock - 1) {
    enterPhase(ctx, `checking block ${ctx.pointer.number} for a reorg`);
    const current = await getBlock(rpc, ctx.pointer.number);
    // No block there yet is a provider behind (a lagging backend), not a reorg: wait for it. A reorg is a changed hash.
    if (!current) {
      ctx.log("debug", `the provider has no block ${ctx.pointer.number} yet; waiting`);
      return false;
    }
    if (current.hash !== ctx.pointer.hash) {
      await handleReorg(ctx);
      return true;
    }
  }
  const from = ctx.pointer ? ctx.pointer.number + 1 : startBlock;
  if (from > head) {
    await markSynced(ctx);
    return false;
  }
  if (ctx.state !== "syncing" && ctx.state !== "synced") ctx.log("info", `indexing from block ${from} (head ${head})`);
  if (ctx.state === "starting") ctx.state = "syncing";
  enterPhase(ctx, `fetching logs from block ${from}`);
  let range = await takeRange(ctx, from, head);
  const taken = (r: LoadedRange) => {
    ctx.log("debug", `blocks ${r.jobs[0]?.ptr.number ?? r.end.number}-${r.end.number}: ${r.jobs.reduce((n, j) => n + j.triggers.length, 0)} triggers`);
    // Fetch the next range while this one runs and commits.
    if (r.end.number < head) prefetchRange(ctx, r.end.number + 1, head);
  };
  taken(range);
  let jobs = range.jobs;
  // Files still missing are looked for at each batch's last block; a range with no triggers gets one
  // too, so that a file that arrives while the chain is quiet is processed with the next block, as graph-node does.
  if (jobs.at(-1)?.ptr.number !== range.end.number && waitingFiles(ctx).length > 0) jobs = [...jobs, { ptr: range.end, triggers: [] }];
  // Up to the head this step saw, the worker runs on from range to range (not with files waiting: each
  // range's last block looks for them). The step then ends with the last range taken.
  const more = async (): Promise<BlockJob[] | null> => {
    if (ctx.stopping || waitingFiles(ctx).length > 0) return null;
    const next = await takeFollowingRange(ctx, range.end);
    if (!next) return null;
    range = next;
    taken(next);
    return next.jobs;
  };
  for (let interrupted = await runJobs(ctx, jobs, more); interrupted; interrupted = await runJobs(ctx, jobs)) {
    // Data sources were created: the prefetched range lacks them, and the rest of this one gets
    // their triggers merged in.
    ctx.prefetched = null;
    const after = interrupted.ptr.number;
    jobs = interrupted.rest;
    if (after < range.end.number) {
      enterPhase(ctx, `fetching the new data sources' logs from block ${after + 1}`);
      jobs = mergeJobs(jobs, await loadCreatedTriggers(ctx, interrupted.created, after + 1, range.end.number), ctx.sources.list);
    }
  }
  enterPhase(ctx, `committing the pointer at block ${range.end.number}`);
  if (!ctx.pointer || ctx.pointer.number < range.end.number) {
    await ctx.store.transact(ctx.id, range.end, []);
    // A deployment whose last triggers lay more than CAUGHT_UP_DISTANCE below the head becomes synced here.
    await noteCommitted(ctx, [{ number: range.end.number, hash: range.end.hash }]);
  }
  // Set by now: committed above, or already at or past the range's end.
  if (ctx.pointer && ctx.pointer.number >= head) await markSynced(ctx);
  return true;
}

/** Start again from what the store holds after an error; the worker's cache may be ahead of it. */
async function resetAfterError(ctx: IndexerContext): Promise<void> {
  enterPhase(ctx, "resetting after an error");
  ctx.committing = Promise.resolve();
  ctx.prefetched = null;
  const again = await ctx.store.getDeployment(ctx.id).catch(() => null);
  if (again) ctx.pointer = again.latestBlock;
  // With the store down this fails too; the next step's error brings us back here.
  await reloadCreated(ctx).catch(() => {});
  await ctx.worker!.reset(workerDataSourceCount(ctx), waitingFiles(ctx)).catch(async () => {
    await ctx.worker?.terminate();
    ctx.worker = await startWorker(ctx);
  });
}

/** Indexes until stopped or failed; resolves when the loop ends. */
export async function runIndexingLoop(ctx: IndexerContext): Promise<void> {
  const { store, id } = ctx;
  const rec = await store.getDeployment(id);
  if (!rec) throw new IndexerError(`deployment ${id} is not in the store`);
  // A deterministic failure is for good; a non-deterministic one is retried after a restart, as graph-node does.
  if (rec.health === "failed" && rec.fatalError?.deterministic !== false) {
    ctx.state = "failed";
    ctx.log("info", "deployment has failed before; not indexing it");
    return;
  }
  ctx.failedNonDeterministically = rec.health === "failed";
  ctx.pointer = rec.latestBlock;
  ctx.startedFrom ??= { at: Date.now(), block: rec.latestBlock?.number ?? null };
  ctx.synced = rec.synced;
  if (ctx.pointer) ctx.recent.add(ctx.pointer);
  await reloadCreated(ctx);
  ctx.worker = await startWorker(ctx);
  let failures = 0;
  const watchdog = startWatchdog(ctx);
  try {
    while (!ctx.stopping) {
      try {
        const busy = await step(ctx);
        enterPhase(ctx, "idle");
        failures = 0;
        if (ctx.failedNonDeterministically) {
          // graph-node unfails a deployment whose non-deterministic error went away.
          await store.markHealthy(id);
          ctx.failedNonDeterministically = false;
        }
        if (!busy && !ctx.stopping) await sleep(ctx, ctx.poll);
      } catch (err) {
        if (err instanceof DeploymentFailed) {
          ctx.state = "failed";
          return;
        }
        if (err instanceof DeploymentPaused) return;
        failures++;
        // The providers' own backoff already waited out their faults (local-node/providers): this wait is
        // for what is left (the store, a host worker), short and jittered, never compounding into long sleeps.
        const wait = err instanceof ProvidersUnavailableError ? 1_000 : Math.round(Math.min(10_000, 250 * 2 ** Math.min(failures - 1, 6)) * (0.5 + Math.random() / 2));
        ctx.log("warning", `retrying in ${wait} ms: ${(err as Error).message}`);
        try {
          await resetAfterError(ctx);
        } catch (restartError) {
          // No host worker to run the handlers on: say so in the status instead of stopping quietly.
          const message = `host worker could not restart: ${restartError instanceof Error ? restartError.message : String(restartError)}`;
          ctx.log("error", message);
          await ctx.store.markFailed(ctx.id, { message, block: ctx.pointer, handler: null, deterministic: false }).catch(() => {});
          ctx.state = "failed";
          return;
        }
        // The backoff is a chosen wait, not a stuck step.
        enterPhase(ctx, "idle");
        if (!ctx.stopping) await sleep(ctx, wait);
      }
    }
  } finally {
    clearInterval(watchdog);
    await ctx.worker?.terminate();
    ctx.worker = null;
    if (ctx.state !== "failed") ctx.state = "stopped";
  }
}
