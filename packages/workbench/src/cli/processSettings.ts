// Process settings for a long-running node (`node`, `dev`), made before anything is loaded (Linux):
// - glibc serves a big allocation (a message to or from the host thread, a fetched body, a COPY batch)
//   from its heaps once a block that size has been freed (its mmap threshold follows the largest freed),
//   and a heap keeps the pages freed between live blocks: about 80 MiB of a catch-up's peak here. A fixed
//   threshold maps each big block alone and unmaps it when freed.
// - V8's helper threads (parallel scavenges, compiling PGlite's hot functions) compete for the cores with
//   the node's two busy threads (committing, running handlers), and each has its own malloc arena: on 2
//   cores one helper instead of Node's four left the rate as it was and about 20 MiB less at the peak.
// - The main thread's young generation at semi-spaces of 8 MiB instead of V8's 16: a range's decoded
//   logs outlive a few scavenges and die old either way, so the larger one held 16 MiB more for little.
//   V8's flag also overrides the size a worker asks for (resourceLimits), so once the main thread's heap
//   is set up it is unset again for the threads.
// - WebAssembly functions tier up to TurboFan after a quarter of V8's execution budget. PGlite's largest
//   functions each take TurboFan up to a second and 22-37 MB of compiler memory; tiered up sooner, they
//   compile as the node starts instead of in the middle of a catch-up.
// glibc reads the variable as a process starts, so the process starts again in place (execve: the same
// pid, for npm and signals). A setting the user made is kept. docs/benchmarks.md has the figures.
import { availableParallelism } from "node:os";
import { setFlagsFromString } from "node:v8";

const MAIN_SEMI_SPACE_ONLY = "SUBGRAPH_WORKBENCH_MAIN_SEMI_SPACE_ONLY";

/** Starts this process again in place with the settings, once; returns when they are in effect (or cannot be). */
export function applyLongRunningSettings(): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (process.platform === "linux" && process.env.MALLOC_MMAP_THRESHOLD_ === undefined && typeof execve === "function") {
    const unset = (flag: string) => !process.execArgv.some((a) => a.startsWith(flag));
    const setSemiSpace = unset("--max-semi-space-size");
    const v8Settings = [
      ...(unset("--v8-pool-size") ? [`--v8-pool-size=${Math.max(1, Math.min(4, availableParallelism() - 2))}`] : []),
      ...(setSemiSpace ? ["--max-semi-space-size=8"] : []),
      ...(unset("--wasm-tiering-budget") ? ["--wasm-tiering-budget=3250000"] : []),
    ];
    const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: "131072", ...(setSemiSpace ? { [MAIN_SEMI_SPACE_ONLY]: "1" } : {}) };
    execve.call(process, process.execPath, [process.execPath, ...v8Settings, ...process.execArgv, ...process.argv.slice(1)], env);
  }
  if (process.env[MAIN_SEMI_SPACE_ONLY]) {
    delete process.env[MAIN_SEMI_SPACE_ONLY];
    // 0 is V8's "not set": a worker started from now on gets the young generation it asks for.
    setFlagsFromString("--max-semi-space-size=0");
  }
}
