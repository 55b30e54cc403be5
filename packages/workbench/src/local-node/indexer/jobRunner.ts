// Runs block jobs on the host worker and commits their results, pipelined: groups k-1 and k are
// committed while the worker runs group k+1. A deterministic handler failure ends the deployment.
import { getBlock } from "../chain/index.js";
import type { BlockJob, BlockResult, CreatedDataSource, HandlerFailure, JobBlockPtr } from "./hostProtocol.js";
import { toStored } from "./createdDataSources.js";
import type { IndexerContext } from "./indexerContext.js";
import { enterPhase } from "./watchdog.js";
import { IndexerError } from "./errors.js";
import { describeFrames } from "../../lib/wasmStack.js";
import { createHeapCeiling } from "../../lib/heapCeiling.js";
import { createIdleHeapTrim, IDLE_TRIM_QUIET_MS } from "../../lib/idleHeapTrim.js";

/** A deterministic handler failure: the deployment stops for good. */
export class DeploymentFailed extends Error {}

/** A non-fatal error before the deployment synced: it is paused, as graph-node's fail-fast does. */
export class DeploymentPaused extends Error {}

/**
 * The main thread's heap holds a few ranges and commits alive; between commits it filled to about
 * 200 MiB of garbage before V8 collected it (bench:node-memory). A range's decoded logs live long enough
 * to be promoted and then die in the old generation (about 40 MiB a second in a catch-up, about 40 MiB
 * live after each collection), so the ceiling follows what survived by a slack (24 MiB, or half of it
 * when that is more) rather than twice it: 100,000 approvals peaked at about 375 MiB instead of about
 * 400, indexing about 6% slower by the medians of alternated runs (docs/benchmarks.md, 2026-11-28,
 * ninth session).
 */
const keepHeapDown = createHeapCeiling({ floorMiB: 64, growth: 1.5, minSlackMiB: 24 });

/** Two seconds without a commit: the catch-up is over (or waits on the chain), and the emptied pages go back. */
const idleTrim = createIdleHeapTrim({ quietMs: IDLE_TRIM_QUIET_MS, aboveMiB: 64 });

/** One database transaction for a group of blocks, with their hashes for later reorg checks. */
async function commitResults(ctx: IndexerContext, results: BlockResult[]): Promise<void> {
  if (results.length === 0) return;
  const ptrs = results.map((r) => ({ number: r.ptr.number, hash: r.ptr.hash }));
  // The store records each committed block's hash itself (for later reorg checks).
  const base = ctx.sources.staticCount;
  // Debug lines around the transaction: the restart suite SIGKILLs the node between them.
  const span = `blocks ${ptrs[0]!.number}-${ptrs[ptrs.length - 1]!.number}`;
  const changes = results.reduce((n, r) => n + r.changes.length + (r.copied ?? []).reduce((rows, c) => rows + c.rows, 0), 0);
  ctx.log("debug", `committing ${span}: ${changes} entity changes`);
  const started = Date.now();
  await ctx.store.transactBlocks(
    ctx.id,
    results.map((r) => ({
      block: r.ptr,
      changes: r.changes,
      ...(r.copied ? { copied: r.copied } : {}),
      ...(r.created ? { dataSources: toStored(r.created) } : {}),
      ...(r.done ? { doneDataSources: r.done.map((index) => index - base) } : {}),
      ...(r.errors ? { nonFatalErrors: r.errors } : {}),
      ...(r.poiJournal ? { poiJournal: r.poiJournal } : {}),
    })),
  );
  ctx.log("debug", `committed ${span} in ${Date.now() - started} ms`);
  keepHeapDown();
  idleTrim.busy();
  await noteCommitted(ctx, ptrs);
}

/**
 * The pointer moves to the last of `ptrs`, just committed (blocks with triggers, or a range's end): their
 * hashes are kept for reorg checks, the deployment may become synced, and a synced one's deferred work
 * (the proof of indexing's hashing) is told.
 */
export async function noteCommitted(ctx: IndexerContext, ptrs: { number: number; hash: string }[]): Promise<void> {
  for (const p of ptrs) ctx.recent.add(p);
  ctx.pointer = ptrs[ptrs.length - 1]!;
  await noteCaughtUp(ctx);
  if (ctx.synced) ctx.options.afterSyncedCommit?.(ctx.id);
}

/** graph-node counts a deployment caught up, for good, once it commits a block this close to the head. */
export const CAUGHT_UP_DISTANCE = 10;

/** Sets the stored `synced` flag as graph-node does: at the first commit within CAUGHT_UP_DISTANCE of the head. */
async function noteCaughtUp(ctx: IndexerContext): Promise<void> {
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

/** A group of blocks on the worker. */
interface GroupRun {
  group: BlockJob[];
  answer: Promise<{ results: BlockResult[]; failure: HandlerFailure | null }>;
}

function startRun(ctx: IndexerContext, group: BlockJob[]): GroupRun {
  enterPhase(ctx, `running handlers for blocks ${group[0]!.ptr.number}-${group[group.length - 1]!.ptr.number}`);
  const answer = ctx.worker!.run(group);
  ctx.options.hostThreads?.running(answer);
  // Awaited later, maybe after a commit's own wait: a worker that fails meanwhile is no unhandled rejection.
  answer.catch(() => {});
  return { group, answer };
}

/** A run after which the next may start: nothing in it changes what the next group runs with. */
function runsOn(results: BlockResult[], failure: HandlerFailure | null): boolean {
  return failure === null && !results.some((r) => r.errors || r.created?.some((c) => c.causalityRegion === undefined));
}

/**
 * How many runs the worker holds at once. A second is queued behind the first only where no run's
 * results can change what the next runs with (no templates, no nonFatalErrors): the worker then never
 * waits for the main thread, whose event loop a commit blocks while PGlite runs a statement. A failure
 * makes the run queued behind it moot; its results are dropped.
 */
export function runsInFlight(deployment: IndexerContext["deployment"]): number {
  const creates = (deployment.templates?.length ?? 0) + (deployment.fileTemplates?.length ?? 0) > 0;
  return creates || deployment.features?.includes("nonFatalErrors") ? 1 : 2;
}

/**
 * Runs the jobs on the worker in groups. The worker starts group k+1 as soon as it answers group k (or
 * already has it queued, see runsInFlight), while the commits of the groups before are still under
 * way: the two threads each work without waiting for the other's turn (the worker answers reads of
 * the runs not yet committed itself, hostRuntime's UNCONFIRMED_RUNS). Once the jobs are all run,
 * `more` may give the next range's, which run on in the same way (a range boundary no longer waits
 * for the commits). When a block's handlers create contract data sources, the run stops after that
 * block (later blocks were loaded without the new data sources): answers that block and what it
 * created (its commit is done); null otherwise. File data sources need no such stop: they have no
 * chain triggers.
 */
export async function runJobs(ctx: IndexerContext, jobs: BlockJob[], more?: () => Promise<BlockJob[] | null>): Promise<{ ptr: JobBlockPtr; created: CreatedDataSource[]; rest: BlockJob[] } | null> {
  // A block whose handlers were skipped for errors (nonFatalErrors) ends its run, so that it is
  // committed before fail-fast looks at it, as graph-node commits it; the rest of its group runs next.
  const queue = groupJobs(jobs, ctx.perRun);
  const depth = runsInFlight(ctx.deployment);
  const inFlight: GroupRun[] = [];
  // Set once a run's results change what the next runs with: nothing more starts until they are handled.
  let held = false;
  // The next range, asked for in the background once the queue is empty.
  let asking = null as Promise<void> | null;
  let exhausted = more === undefined;
  const startQueued = (): void => {
    while (!held && inFlight.length < depth && queue.length > 0) inFlight.push(startRun(ctx, queue.shift()!));
    if (held || exhausted || asking || queue.length > 0) return;
    asking = more!().then(
      (next) => {
        asking = null;
        if (next) queue.push(...groupJobs(next, ctx.perRun));
        else exhausted = true;
        startQueued();
      },
      // The step ends with what it has; the next one fetches from the pointer again (and retries).
      (err: unknown) => {
        asking = null;
        exhausted = true;
        ctx.log("debug", `the next range could not be taken on: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  };
  try {
    startQueued();
    for (;;) {
      if (inFlight.length === 0 && asking) {
        enterPhase(ctx, "fetching the next range");
        await asking;
        // An empty range has already asked for the one after it (startQueued in its callback): look again,
        // or that range's jobs would be dropped while the pointer moved past them.
        continue;
      }
      // Counted in flight until it answers: a range that arrives meanwhile must not start a run past it.
      const run = inFlight[0];
      if (!run) break;
      const { results, failure } = await run.answer;
      inFlight.shift();
      held = !runsOn(results, failure);
      startQueued();
      enterPhase(ctx, `committing blocks up to ${results[results.length - 1]?.ptr.number ?? "-"}`);
      await ctx.committing;
      ctx.committing = commitResults(ctx, results);
      noteCreated(ctx, results);
      await failFast(ctx, results);
      const last = results[results.length - 1];
      const contracts = last?.created?.filter((c) => c.causalityRegion === undefined) ?? [];
      if (!failure && last && contracts.length > 0) {
        await ctx.committing;
        await asking;
        const rest = [...run.group.filter((j) => j.ptr.number > last.ptr.number), ...queue.flat()];
        return { ptr: last.ptr, created: contracts, rest };
      }
      if (failure) {
        await ctx.committing;
        if (!failure.deterministic) {
          await reportNonDeterministic(ctx, failure);
          throw new IndexerError(`handler ${failure.handler ?? "?"} failed at block ${failure.block.number}: ${failure.message}`);
        }
        // The location goes to the log (and the dashboard); the stored message stays graph-node's.
        ctx.failureTrap = failure.trap ? { ...failure.trap, handler: failure.handler, block: failure.block.number } : null;
        ctx.log("error", `handler ${failure.handler ?? "?"} failed at block ${failure.block.number}: ${failure.message}${failure.trap ? ` (in the mapping: ${describeFrames(failure.trap.frames)})` : ""}`);
        const { trap: _trap, ...stored } = failure;
        await ctx.store.markFailed(ctx.id, asGraphNodeReportsIt(stored), failure.poiJournal);
        throw new DeploymentFailed(failure.message);
      }
      const rest = last?.errors ? run.group.filter((j) => j.ptr.number > last.ptr.number) : [];
      if (rest.length > 0) queue.unshift(rest);
      held = false;
      startQueued();
    }
  } finally {
    held = true;
    await ctx.committing.catch(() => {});
    // A range still being asked for, and runs started ahead of a commit that failed or queued behind a
    // failed run: all done before anyone resets the worker or the prefetch.
    await asking;
    for (const run of inFlight) await run.answer.catch(() => {});
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
