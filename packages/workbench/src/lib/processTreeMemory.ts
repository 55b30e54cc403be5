// Resident memory of a process and everything below it, read from /proc (Linux only): what the memory
// benchmarks sample while a node indexes, to tell its own memory from its helpers' (npm, tsx, esbuild).
import { readFileSync } from "node:fs";
import { descendantsOf } from "./processTree.js";

export interface ProcessMemory {
  pid: number;
  /** The command line, shortened (argv[0]'s base name and what follows). */
  command: string;
  /** Resident now, and the highest resident this process reached (VmHWM), in KiB. */
  rssKiB: number;
  peakKiB: number;
}

function statusField(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return m ? Number(m[1]) : 0;
}

function commandOf(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const [first = "?", ...rest] = argv;
    // A process that set its title (npm) has one argument with spaces: keep it whole.
    return [first.includes(" ") ? first : first.split("/").pop(), ...rest.map((a) => (a.includes("/") ? a.split("/").slice(-2).join("/") : a))].join(" ").slice(0, 120);
  } catch {
    return "?";
  }
}

/** `root` and its descendants (a process that ends while being read is left out). */
export function processTreeMemory(root: number): ProcessMemory[] {
  const out: ProcessMemory[] = [];
  for (const pid of [root, ...descendantsOf(root)]) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      out.push({ pid, command: commandOf(pid), rssKiB: statusField(status, "VmRSS"), peakKiB: statusField(status, "VmHWM") });
    } catch {
      // Ended while the table was read.
    }
  }
  return out;
}

/**
 * Samples a process tree every `intervalMs` until stopped: the highest sum of resident memory seen at
 * one moment (of the processes `counted` accepts: a launcher such as npm may be left out), and each
 * process's own peak (VmHWM, which also covers moments between samples).
 */
export function sampleProcessTree(root: number, options: { intervalMs?: number; counted?: (p: ProcessMemory) => boolean } = {}): { stop(): { peakSumKiB: number; processes: ProcessMemory[] } } {
  const counted = options.counted ?? (() => true);
  let peakSumKiB = 0;
  const last = new Map<number, ProcessMemory>();
  const sample = (): void => {
    const tree = processTreeMemory(root);
    peakSumKiB = Math.max(peakSumKiB, tree.filter(counted).reduce((n, p) => n + p.rssKiB, 0));
    for (const p of tree) last.set(p.pid, p);
  };
  sample();
  const timer = setInterval(sample, options.intervalMs ?? 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakSumKiB, processes: [...last.values()] };
    },
  };
}
