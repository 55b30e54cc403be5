// CPU time of processes, read from /proc (Linux only), and a wait for a process tree to go quiet: the
// benchmarks measure an engine until the work it does after catching up (an index build, hashing the
// proof of indexing) is over, not only until its status says synced.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { processTreeMemory, type ProcessMemory } from "./processTreeMemory.js";

/** Clock ticks per second of /proc's times (100 on every Linux this runs on; asked once anyway). */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * A process's CPU seconds: its own user and system time plus that of its children that ended and were
 * waited for (cutime, cstime), so helpers that came and went are counted by their parent.
 */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "pid (comm) ": state is 0, utime 11, stime 12, cutime 13, cstime 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i] ?? 0), 0) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** The CPU seconds of the live processes of `root`'s tree that `counted` accepts. */
export function treeCpuSeconds(root: number, counted: (p: ProcessMemory) => boolean): number {
  return processTreeMemory(root)
    .filter(counted)
    .reduce((n, p) => n + cpuSecondsOf(p.pid), 0);
}

export interface QuietOptions {
  /** The span over which the CPU use is judged (default 2,000 ms). */
  windowMs?: number;
  /** Quiet below this share of one core over a window (default 0.1): polling a chain stays under it. */
  busyShare?: number;
  /** Gives up after this long (default 60,000 ms). */
  timeoutMs?: number;
}

/**
 * Waits until the counted processes under `root` use less than `busyShare` of one core over a whole
 * window. Resolves with how long they stayed busy (to the start of the quiet window, so to within a
 * window) and whether they went quiet before the timeout.
 */
export async function waitForQuiet(root: number, counted: (p: ProcessMemory) => boolean, options: QuietOptions = {}): Promise<{ busySeconds: number; quiet: boolean }> {
  const windowMs = options.windowMs ?? 2_000;
  const busyShare = options.busyShare ?? 0.1;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  let last = treeCpuSeconds(root, counted);
  for (;;) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = treeCpuSeconds(root, counted);
    const waited = (Date.now() - started) / 1000;
    // A process that ended in the window lowers the sum: that counts as quiet, not as negative time.
    if (now - last < (busyShare * windowMs) / 1000) return { busySeconds: Math.max(0, waited - windowMs / 1000), quiet: true };
    if (Date.now() - started >= timeoutMs) return { busySeconds: waited, quiet: false };
    last = now;
  }
}
