// Process settings for a long-running node (`node`, `dev`), made before anything is loaded (Linux):
// - glibc serves a big allocation (a message to or from the host thread, a fetched body, a COPY batch)
//   from its heaps once a block that size has been freed (its mmap threshold follows the largest freed),
//   and a heap keeps the pages freed between live blocks. A fixed threshold maps each big block alone and
//   unmaps it when freed.
// - V8's helper threads (parallel scavenges, compiling PGlite's hot functions) compete for the cores with
//   the node's two busy threads (committing, running handlers), and each has its own malloc arena: on 2
//   cores one helper instead of Node's four.
// - WebAssembly functions tier up to TurboFan after a quarter of V8's execution budget. PGlite's largest
//   functions each take TurboFan up to a second and 22-37 MB of compiler memory; tiered up sooner, they
//   compile as the node starts instead of in the middle of a catch-up.
// Each pays, measured alone off on 100,000 approvals (2026-12-02, one round, bench:node-memory --variants):
// peak 314 MiB with all three, 379 without the threshold, 350 without the helper count, 352 without the
// budget, 395 with none; docs/benchmarks.md has the figures.
// glibc reads the variable as a process starts, so the process starts again in place (execve: the same
// pid, for npm and signals). A setting the user made is kept.
import { availableParallelism } from "node:os";
import { processSettingOff } from "../lib/processSettingsOff.js";

/** Starts this process again in place with the settings, once; returns when they are in effect (or cannot be). */
export function applyLongRunningSettings(): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (process.platform !== "linux" || process.env.MALLOC_MMAP_THRESHOLD_ !== undefined || typeof execve !== "function") return;
  const unset = (flag: string) => !process.execArgv.some((a) => a.startsWith(flag));
  const v8Settings = [
    ...(unset("--v8-pool-size") && !processSettingOff("v8-pool-size") ? [`--v8-pool-size=${Math.max(1, Math.min(4, availableParallelism() - 2))}`] : []),
    ...(unset("--wasm-tiering-budget") && !processSettingOff("wasm-tiering") ? ["--wasm-tiering-budget=3250000"] : []),
  ];
  const setThreshold = !processSettingOff("mmap-threshold");
  // Started again only for something to set: the flags are then in execArgv, the threshold in the environment.
  if (!setThreshold && v8Settings.length === 0) return;
  const env = { ...process.env, ...(setThreshold ? { MALLOC_MMAP_THRESHOLD_: "131072" } : {}) };
  execve.call(process, process.execPath, [process.execPath, ...v8Settings, ...process.execArgv, ...process.argv.slice(1)], env);
}
