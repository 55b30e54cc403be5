// What an engine's processes cost: peak resident memory (sampled with lib/processTreeMemory's sampler)
// and CPU seconds from /proc (Linux only), per group of processes (graph-node: gnd and its Postgres).
import { cpuSecondsOfAll, waitForQuiet, type QuietOptions } from "subgraph-workbench/lib/processCpu";
import { processTreeMemory, sampleProcessTree, type ProcessMemory } from "subgraph-workbench/lib/processTreeMemory";

export interface GroupUsage {
  /** The highest sum of the group's resident memory at one sample, MiB. */
  peakMiB: number;
  /** CPU seconds of the group's live processes (and their waited-for children) when measured. */
  cpuSeconds: number;
  /** Each process's own peak (VmHWM), largest first. */
  processes: { command: string; peakMiB: number }[];
}

export interface TreeWatch {
  /**
   * Waits, still sampling, until a group's processes go quiet: what an engine does after its status says
   * synced (our node builds its attribute indexes and hashes the proof of indexing) is part of its cost.
   */
  settle(group: string, options?: QuietOptions): Promise<{ busySeconds: number; quiet: boolean }>;
  /** Reads the CPU totals, then stops the memory samplers: call it while the engine still runs. */
  stop(): Record<string, GroupUsage>;
}

/** Watches the tree below `root`, one sampler per named group of processes. */
export function watchTree(root: number, groups: Record<string, (p: ProcessMemory) => boolean>, intervalMs = 50): TreeWatch {
  const samplers = Object.entries(groups).map(([name, counted]) => ({ name, counted, sampler: sampleProcessTree(root, { intervalMs, counted }) }));
  return {
    settle(group, quietOptions) {
      const counted = groups[group];
      if (!counted) throw new Error(`no process group named ${group}`);
      return waitForQuiet(root, counted, quietOptions);
    },
    stop() {
      const live = processTreeMemory(root);
      const out: Record<string, GroupUsage> = {};
      for (const { name, counted, sampler } of samplers) {
        const cpuSeconds = cpuSecondsOfAll(live.filter(counted));
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
