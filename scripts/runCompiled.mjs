// `node scripts/runCompiled.mjs <script.ts> [args]`: runs a project script compiled to JavaScript (in
// .build/, by tsc, again only when a source changed) instead of through tsx's loader. A long-running
// process pays for a loader in every thread: esbuild's service process per thread and each module's
// transform kept in memory, about 150 MB for the local node and its host thread. Plain JavaScript, so
// that it runs before anything is compiled.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire, enableCompileCache, flushCompileCache } from "node:module";
import { availableParallelism } from "node:os";
import { setFlagsFromString } from "node:v8";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = join(root, ".build");
const stamp = join(outDir, ".compiled");
// What tsconfig.json compiles, by folder; fixtures and the subgraph's AssemblyScript are not.
const skip = new Set(["node_modules", "_test", "artifacts", "cache", "generated", "build"]);

/** The newest modification time (ms) of the .ts and .mjs files under `dir`. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || skip.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The .mjs files the compiled code loads by path (worker boot files): tsc does not copy them. */
function copyModules(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || skip.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyModules(path);
    else if (entry.name.endsWith(".mjs") && dir !== root) cpSync(path, join(outDir, relative(root, path)));
  }
}

function compile() {
  const started = Date.now();
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  // Type errors do not stop the emit (as tsx ignores types); `npm run typecheck` reports them.
  const result = spawnSync(
    process.execPath,
    [tsc, "-p", join(root, "tsconfig.json"), "--noEmit", "false", "--outDir", outDir, "--incremental", "--tsBuildInfoFile", join(outDir, ".tsbuildinfo"), "--sourceMap", "false", "--declaration", "false"],
    { cwd: root, encoding: "utf8" },
  );
  if (result.error) throw result.error;
  copyModules(root);
  // Stamped with the time the compile started: a source saved while it ran is compiled next time.
  writeFileSync(stamp, "");
  utimesSync(stamp, started / 1000, started / 1000);
}

// Process settings for a long-running node, made before anything is loaded (Linux):
// - glibc serves a big allocation (a message to or from the host thread, a fetched body, a COPY batch)
//   from its heaps once a block that size has been freed (its mmap threshold follows the largest freed),
//   and a heap keeps the pages freed between live blocks: about 80 MiB of a catch-up's peak here. A fixed
//   threshold maps each big block alone and unmaps it when freed.
// - V8's helper threads (parallel scavenges, compiling PGlite's hot functions) compete for the cores with
//   the node's two busy threads (committing, running handlers), and each has its own malloc arena: on 2
//   cores one helper instead of Node's four left the rate as it was and about 20 MiB less at the peak.
// - The main thread's young generation at semi-spaces of 8 MiB instead of V8's 16: a range's decoded
//   logs outlive a few scavenges and die old either way, so the larger one held 16 MiB more for little.
//   Alternated on 100,000 approvals: 349-352 MiB instead of 361-377 at the same rate (one run of four
//   at 434, a malloc arena's swing). V8's flag also overrides the size a worker asks for
//   (resourceLimits), so once the main thread's heap is set up it is unset again for the threads.
// - WebAssembly functions tier up to TurboFan after a quarter of V8's execution budget (3,250,000 instead
//   of 13,000,000). PGlite's largest functions (standard_ProcessUtility, raw_parser, nodeRead: bodies of
//   90-126 KB) each take TurboFan up to a second and 22-37 MB of compiler memory, freed after. With V8's
//   budget they got hot in the middle of a catch-up, on top of its heaps (spikes of 60 MiB in malloc's
//   arenas); tiered up sooner, they compile as the node starts, and the catch-up runs optimized code
//   earlier. Alternated on 100,000 approvals: peaks 308-315 MiB instead of 315-330, indexing no slower.
// glibc reads the variable as a process starts, so the process starts again in place (execve: the same
// pid, for npm and signals). A V8 setting the user passed is kept.
const MAIN_SEMI_SPACE_ONLY = "RUN_COMPILED_MAIN_SEMI_SPACE_ONLY";
if (process.platform === "linux" && process.env.MALLOC_MMAP_THRESHOLD_ === undefined && typeof process.execve === "function") {
  const unset = (flag) => !process.execArgv.some((a) => a.startsWith(flag));
  const setSemiSpace = unset("--max-semi-space-size");
  const v8Settings = [
    ...(unset("--v8-pool-size") ? [`--v8-pool-size=${Math.max(1, Math.min(4, availableParallelism() - 2))}`] : []),
    ...(setSemiSpace ? ["--max-semi-space-size=8"] : []),
    ...(unset("--wasm-tiering-budget") ? ["--wasm-tiering-budget=3250000"] : []),
  ];
  const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: "131072", ...(setSemiSpace ? { [MAIN_SEMI_SPACE_ONLY]: "1" } : {}) };
  process.execve(process.execPath, [process.execPath, ...v8Settings, ...process.execArgv, ...process.argv.slice(1)], env);
}
if (process.env[MAIN_SEMI_SPACE_ONLY]) {
  delete process.env[MAIN_SEMI_SPACE_ONLY];
  // 0 is V8's "not set": a worker started from now on gets the young generation it asks for.
  setFlagsFromString("--max-semi-space-size=0");
}

const [entry, ...args] = process.argv.slice(2);
if (!entry || !entry.endsWith(".ts")) {
  console.error("usage: node scripts/runCompiled.mjs <script.ts> [args]");
  process.exit(2);
}
const compiled = join(outDir, relative(root, join(root, entry)).replace(/\.ts$/, ".js"));
const sources = ["lib", "subgraph-schema", "wasm-host", "local-node", "clients", "scripts", "hardhat", "graph-node"].map((d) => join(root, d)).filter(existsSync);
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (!existsSync(compiled) || Math.max(...sources.map(newestSource), statSync(join(root, "tsconfig.json")).mtimeMs) > builtAt) {
  mkdirSync(outDir, { recursive: true });
  compile();
  if (!existsSync(compiled)) {
    console.error(`error: tsc did not produce ${relative(root, compiled)}`);
    process.exit(1);
  }
}
// V8's code cache on disk (Node's default folder): a start after the first skips compiling the node's
// modules and its dependencies' again (worker threads do the same in lib/workerBoot.mjs).
enableCompileCache?.();
// The script sees its own arguments, as if it had been started directly.
process.argv = [process.argv[0], compiled, ...args];
await import(pathToFileURL(compiled).href);
// A long-running script is ended by a signal, which writes nothing: what it loaded to start goes now.
flushCompileCache?.();
