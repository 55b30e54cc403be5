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

/** The CPU seconds of these processes together. */
export function cpuSecondsOfAll(processes: { pid: number }[]): number {
  return processes.reduce((n, p) => n + cpuSecondsOf(p.pid), 0);
}

/** The CPU seconds of the live processes of `root`'s tree that `counted` accepts. */
function treeCpuSeconds(root: number, counted: (p: ProcessMemory) => boolean): number {
  return cpuSecondsOfAll(processTreeMemory(root).filter(counted));
}

export interface QuietOptions {
  /** The span over which the CPU use is judged, sliding (default 5,000 ms): longer than a delayed step. */
  windowMs?: number;
  /** How often the CPU time is read (default 500 ms). */
  pollMs?: number;
  /** Quiet below this share of one core over a window (default 0.1): polling a chain stays under it. */
  busyShare?: number;
  /** Gives up after this long (default 60,000 ms). */
  timeoutMs?: number;
}

/**
 * Waits until the counted processes under `root` have used less than `busyShare` of one core over the
 * last window (so it always waits at least one window, and what they do within it is seen). Resolves
 * with how long they stayed busy (to the start of that quiet window, to within a poll) and whether they
 * went quiet before the timeout.
 */
export async function waitForQuiet(root: number, counted: (p: ProcessMemory) => boolean, options: QuietOptions = {}): Promise<{ busySeconds: number; quiet: boolean }> {
  const windowMs = options.windowMs ?? 5_000;
  const pollMs = Math.min(options.pollMs ?? 500, windowMs);
  const busyShare = options.busyShare ?? 0.1;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  const readings: { at: number; cpu: number }[] = [{ at: started, cpu: treeCpuSeconds(root, counted) }];
  for (;;) {
    await new Promise((r) => setTimeout(r, pollMs));
    const at = Date.now();
    readings.push({ at, cpu: treeCpuSeconds(root, counted) });
    // The oldest reading still within a window of now.
    while (readings.length > 2 && at - readings[1]!.at >= windowMs) readings.shift();
    const from = readings[0]!;
    // A process that ended in the window lowers the sum: that counts as quiet, not as negative time.
    if (at - from.at >= windowMs && readings[readings.length - 1]!.cpu - from.cpu < (busyShare * (at - from.at)) / 1000) {
      return { busySeconds: (from.at - started) / 1000, quiet: true };
    }
    if (at - started >= timeoutMs) return { busySeconds: (at - started) / 1000, quiet: false };
  }
}
