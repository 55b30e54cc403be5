// The loop names what it waits on; a timer reports a step that has waited too long, so a hung RPC
// call or worker shows up in the log instead of as silence. The same timer ends a worker whose
// handlers keep a stopping deployment from stopping (pause, remove, shutdown).
import type { IndexerContext } from "./indexerContext.js";

/** How long a stop waits for the run in flight to finish on its own before its thread is ended. */
export const STOP_GRACE_MS = 1000;
const TICK_MS = 200;

export function enterPhase(ctx: IndexerContext, next: string): void {
  ctx.phase = next;
  ctx.phaseSince = Date.now();
}

/** Starts reporting slow steps and guarding stops; returns the timer for clearInterval. */
export function startWatchdog(ctx: IndexerContext): ReturnType<typeof setInterval> {
  const slowMs = ctx.options.slowStepMs ?? 30_000;
  const reportEvery = Math.min(10_000, slowMs / 2);
  let lastReport = Date.now();
  let stopSeenAt: number | null = null;
  const watchdog = setInterval(() => {
    const now = Date.now();
    if (ctx.stopping && ctx.worker) {
      stopSeenAt ??= now;
      // A run that does not end within the grace is a handler in a loop (or a very long one): nothing
      // of it would be kept anyway, and only ending its thread stops it.
      if (now - stopSeenAt >= STOP_GRACE_MS && ctx.worker.busy) {
        ctx.log("warning", `stopping: ending the host worker, its handlers were still running ${((now - stopSeenAt) / 1000).toFixed(1)} s after the stop`);
        void ctx.worker.interrupt("host worker ended: the deployment is stopping");
      }
    }
    if (now - lastReport < reportEvery) return;
    lastReport = now;
    const waited = now - ctx.phaseSince;
    if (ctx.phase !== "idle" && waited >= slowMs) ctx.log("warning", `still ${ctx.phase} after ${(waited / 1000).toFixed(1)} s; worker: ${ctx.worker?.describe() ?? "none"}`);
  }, Math.min(TICK_MS, reportEvery));
  watchdog.unref();
  return watchdog;
}
