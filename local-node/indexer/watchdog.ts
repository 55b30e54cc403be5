// The loop names what it waits on; a timer reports a step that has waited too long, so a hung RPC
// call or worker shows up in the log instead of as silence.
import type { IndexerContext } from "./indexerContext.js";

export function enterPhase(ctx: IndexerContext, next: string): void {
  ctx.phase = next;
  ctx.phaseSince = Date.now();
}

/** Starts reporting slow steps; returns the timer for clearInterval. */
export function startWatchdog(ctx: IndexerContext): ReturnType<typeof setInterval> {
  const slowMs = ctx.options.slowStepMs ?? 30_000;
  const watchdog = setInterval(() => {
    const waited = Date.now() - ctx.phaseSince;
    if (ctx.phase !== "idle" && waited >= slowMs) ctx.log("warning", `still ${ctx.phase} after ${(waited / 1000).toFixed(1)} s; worker: ${ctx.worker?.describe() ?? "none"}`);
  }, Math.min(10_000, slowMs / 2));
  watchdog.unref();
  return watchdog;
}
