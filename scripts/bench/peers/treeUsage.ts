// What an engine's processes cost: peak resident memory (sampled with lib/processTreeMemory's sampler)
// and CPU seconds from /proc (Linux only), per group of processes (graph-node: gnd and its Postgres).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { processTreeMemory, sampleProcessTree, type ProcessMemory } from "../../../lib/processTreeMemory.js";

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

export interface GroupUsage {
  /** The highest sum of the group's resident memory at one sample, MiB. */
  peakMiB: number;
  /** CPU seconds of the group's live processes (and their waited-for children) when measured. */
  cpuSeconds: number;
  /** Each process's own peak (VmHWM), largest first. */
  processes: { command: string; peakMiB: number }[];
}

export interface TreeWatch {
  /** Reads the CPU totals, then stops the memory samplers: call it while the engine still runs. */
  stop(): Record<string, GroupUsage>;
}

/** Watches the tree below `root`, one sampler per named group of processes. */
export function watchTree(root: number, groups: Record<string, (p: ProcessMemory) => boolean>, intervalMs = 50): TreeWatch {
  const samplers = Object.entries(groups).map(([name, counted]) => ({ name, counted, sampler: sampleProcessTree(root, { intervalMs, counted }) }));
  return {
    stop() {
      const live = processTreeMemory(root);
      const out: Record<string, GroupUsage> = {};
      for (const { name, counted, sampler } of samplers) {
        const cpuSeconds = live.filter(counted).reduce((n, p) => n + cpuSecondsOf(p.pid), 0);
        const { peakSumKiB, processes } = sampler.stop();
        out[name] = {
          peakMiB: peakSumKiB / 1024,
          cpuSeconds,
          processes: processes.filter(counted).sort((a, b) => b.peakKiB - a.peakKiB).map((p) => ({ command: p.command, peakMiB: p.peakKiB / 1024 })),
        };
      }
      return out;
    },
  };
}
