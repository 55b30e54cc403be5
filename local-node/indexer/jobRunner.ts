// Runs block jobs on the host worker and commits their results, pipelined: group k is committed
// while the worker runs group k+1. A deterministic handler failure ends the deployment.
import { getBlock } from "../chain/index.js";
import type { BlockJob, BlockResult, CreatedDataSource, HandlerFailure, JobBlockPtr } from "./hostProtocol.js";
import { toStored } from "./createdDataSources.js";
import type { IndexerContext } from "./indexerContext.js";
import { enterPhase } from "./watchdog.js";
import { IndexerError } from "./errors.js";
import { createHeapCeiling } from "../../lib/heapCeiling.js";

/** A deterministic handler failure: the deployment stops for good. */
export class DeploymentFailed extends Error {}

/** A non-fatal error before the deployment synced: it is paused, as graph-node's fail-fast does. */
export class DeploymentPaused extends Error {}

/**
 * The main thread's heap holds a few ranges and commits alive; between commits it filled to about
 * 200 MiB of garbage before V8 collected it (bench:node-memory). One ceiling for every deployment.
 */
const keepHeapDown = createHeapCeiling(96);

/** One database transaction for a group of blocks, with their hashes for later reorg checks. */
async function commitResults(ctx: IndexerContext, results: BlockResult[]): Promise<void> {
  if (results.length === 0) return;
  const ptrs = results.map((r) => ({ number: r.ptr.number, hash: r.ptr.hash }));
  // The store records each committed block's hash itself (for later reorg checks).
  const base = ctx.sources.staticCount;
  // Debug lines around the transaction: the restart suite SIGKILLs the node between them.
  const span = `blocks ${ptrs[0]!.number}-${ptrs[ptrs.length - 1]!.number}`;
  ctx.log("debug", `committing ${span}: ${results.reduce((n, r) => n + r.changes.length, 0)} entity changes`);
  const started = Date.now();
  await ctx.store.transactBlocks(
    ctx.id,
    results.map((r) => ({
      block: r.ptr,
      changes: r.changes,
      ...(r.created ? { dataSources: toStored(r.created) } : {}),
      ...(r.done ? { doneDataSources: r.done.map((index) => index - base) } : {}),
      ...(r.errors ? { nonFatalErrors: r.errors } : {}),
      ...(r.poiJournal ? { poiJournal: r.poiJournal } : {}),
    })),
  );
  ctx.log("debug", `committed ${span} in ${Date.now() - started} ms`);
  keepHeapDown();
  for (const p of ptrs) ctx.recent.add(p);
  ctx.pointer = ptrs[ptrs.length - 1]!;
  await noteCaughtUp(ctx);
  if (ctx.synced) ctx.options.afterSyncedCommit?.(ctx.id);
}

/** graph-node counts a deployment caught up, for good, once it commits a block this close to the head. */
export const CAUGHT_UP_DISTANCE = 10;

/** Sets the stored `synced` flag as graph-node does: at the first commit within CAUGHT_UP_DISTANCE of the head. */
export async function noteCaughtUp(ctx: IndexerContext): Promise<void> {
  if (ctx.synced || ctx.head === null || !ctx.pointer || ctx.pointer.number < ctx.head - CAUGHT_UP_DISTANCE) return;
  await ctx.store.setSynced(ctx.id, true);
  ctx.synced = true;
}

/**
 * A deterministic failure as graph-node's status API reports it (checked by the parity suite): the
 * handler and block go into the message (" in handler `H` at block #N (hash)"), and `handler` is null.
 * graph-node's message also carries wasmtime's backtrace, which this host cannot reproduce.
 */
function asGraphNodeReportsIt<T extends { message: string; handler: string | null; block: { number: number; hash: string } }>(failure: T): T {
  const where = `${failure.handler ? ` in handler \`${failure.handler}\`` : ""} at block #${failure.block.number} (${failure.block.hash.replace(/^0x/, "")})`;
  return { ...failure, message: `${failure.message}${where}`, handler: null };
}

/** Whole blocks, cut into groups of about `perRun` triggers. */
function groupJobs(jobs: BlockJob[], perRun: number): BlockJob[][] {
  const groups: BlockJob[][] = [];
  let group: BlockJob[] = [];
  let count = 0;
  for (const job of jobs) {
    group.push(job);
    count += job.triggers.length;
    if (count >= perRun) (groups.push(group), (group = []), (count = 0));
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** Takes the data sources a run's blocks created, and the files it processed, into the main thread's view. */
function noteCreated(ctx: IndexerContext, results: BlockResult[]): void {
  for (const r of results) {
    if (r.created) {
      ctx.created.push(...r.created);
      ctx.sources.add(r.created);
      ctx.log("info", `${r.created.length} data source(s) created at block ${r.ptr.number}: ${r.created.map((c) => `${c.template}(${c.param})`).join(", ")}`);
    }
    for (const index of r.done ?? []) {
      const entry = ctx.created[index - ctx.sources.staticCount];
      if (entry) entry.doneAt = r.ptr.number;
    }
  }
}

/**
 * graph-node's fail-fast: a handler error skipped under `nonFatalErrors` before the deployment has
 * synced pauses it (so a buggy new version never replaces the current one), unless
 * GRAPH_DISABLE_FAIL_FAST is set. Synced deployments go on, unhealthy.
 */
async function failFast(ctx: IndexerContext, results: BlockResult[]): Promise<void> {
  const failed = results.find((r) => r.errors);
  if (!failed?.errors) return;
  for (const e of failed.errors) ctx.log("error", `handler ${e.handler} skipped at block ${failed.ptr.number} (nonFatalErrors): ${e.message}`);
  if (ctx.options.disableFailFast) return;
  // As graph-node, the block's own commit counts: within 10 blocks of the head it marks the deployment synced.
  await ctx.committing;
  if (ctx.synced) return;
  await ctx.store.setPaused(ctx.id, true);
  ctx.log("warning", "paused: a handler failed before the deployment synced (graph-node's fail-fast; GRAPH_DISABLE_FAIL_FAST=true goes on)");
  throw new DeploymentPaused("a non-fatal error before the deployment synced");
}

/**
 * Runs the jobs on the worker in groups, committing group k while the worker runs group k+1. When a
 * block's handlers create contract data sources, the run stops after that block (later blocks were
 * loaded without the new data sources): answers that block and what it created (its commit is done);
 * null otherwise. File data sources need no such stop: they have no chain triggers.
 */
export async function runJobs(ctx: IndexerContext, jobs: BlockJob[]): Promise<{ ptr: JobBlockPtr; created: CreatedDataSource[] } | null> {
  const groups = groupJobs(jobs, ctx.perRun);
  try {
    // A block whose handlers were skipped for errors (nonFatalErrors) ends its run, so that it is
    // committed before fail-fast looks at it, as graph-node commits it; the rest of its group runs next.
    const queue = [...groups];
    for (let g = queue.shift(); g !== undefined; g = queue.shift()) {
      enterPhase(ctx, `running handlers for blocks ${g[0]!.ptr.number}-${g[g.length - 1]!.ptr.number}`);
      const run = ctx.worker!.run(g);
      ctx.options.hostThreads?.running(run);
      const { results, failure } = await run;
      enterPhase(ctx, `committing blocks up to ${results[results.length - 1]?.ptr.number ?? "-"}`);
      await ctx.committing;
      ctx.committing = commitResults(ctx, results);
      noteCreated(ctx, results);
      await failFast(ctx, results);
      const last = results[results.length - 1];
      const contracts = last?.created?.filter((c) => c.causalityRegion === undefined) ?? [];
      if (!failure && last && contracts.length > 0) {
        await ctx.committing;
        return { ptr: last.ptr, created: contracts };
      }
      if (failure) {
        await ctx.committing;
        if (!failure.deterministic) {
          await reportNonDeterministic(ctx, failure);
          throw new IndexerError(`handler ${failure.handler ?? "?"} failed at block ${failure.block.number}: ${failure.message}`);
        }
        ctx.log("error", `handler ${failure.handler ?? "?"} failed at block ${failure.block.number}: ${failure.message}`);
        await ctx.store.markFailed(ctx.id, asGraphNodeReportsIt(failure), failure.poiJournal);
        throw new DeploymentFailed(failure.message);
      }
      const rest = last?.errors ? g.filter((j) => j.ptr.number > last.ptr.number) : [];
      if (rest.length > 0) queue.unshift(rest);
    }
  } finally {
    await ctx.committing.catch(() => {});
  }
  await ctx.committing;
  return null;
}

/**
 * A non-deterministic failure, as graph-node reports it while it retries: every block before the failed
 * one is done, so the pointer moves up to it (an empty commit, which can mark the deployment synced), and
 * the status says failed with the error, not deterministic; queries keep their data.
 */
async function reportNonDeterministic(ctx: IndexerContext, failure: HandlerFailure): Promise<void> {
  const before = failure.block.number - 1;
  if (before >= 0 && (ctx.pointer === null || ctx.pointer.number < before)) {
    const block = await getBlock(ctx.rpc, before);
    if (block) await commitResults(ctx, [{ ptr: { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: Number(block.timestamp) }, changes: [] }]);
  }
  await ctx.store.markFailed(ctx.id, { message: failure.message, block: failure.block, handler: null, deterministic: false });
  ctx.failedNonDeterministically = true;
}
