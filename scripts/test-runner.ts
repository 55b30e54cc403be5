// `npm run bench:runner [-- --suites <dir>] [--only <owner/name>]... [--skip-project]`: the runner's
// figures. First the project's own (scripts/bench/runner.ts: cold compile per file, warm run,
// ApprovalHandler calls/s); then, for each public suite prepared by `npm run compat:matchstick` in
// <dir> (default <tmp>/compat), a cold run (every file recompiled) with one compiler (-j 1, as before
// worker threads) and with one per core, and a warm run: wall time, and how many cores were busy
// (process CPU time / wall time). Each run is a child process. "Before" is the way the runner compiled
// before worker threads: Matchstick's exact flags (binaryen's optimizer) in one compiler.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../hardhat/projectRoot.js";
import { parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  suites: { type: "string", default: join(tmpdir(), "compat") },
  only: { type: "string", multiple: true },
  "skip-project": { type: "boolean", default: false },
});

if (!values["skip-project"]) await import("./bench/runner.js");

interface Figure {
  wallMs: number;
  cpuMs: number;
  files: number;
  compiled: number;
  passed: number;
  failed: number;
}

function timed(dir: string, mode: "cold" | "warm", jobs: number, optimize = false): Figure {
  const args = [join(projectRoot, "testing", "matchstick-compat", "benchSuite.ts"), dir, mode, String(jobs), ...(optimize ? ["optimize"] : [])];
  const child = spawnSync(join(projectRoot, "node_modules", ".bin", "tsx"), args, {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = child.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as Figure;
  } catch {
    throw new Error(`benchmark run in ${dir} failed (exit ${child.status}): ${child.stderr.trim().split("\n").slice(-3).join(" ")}`);
  }
}

const list = JSON.parse(readFileSync(join(projectRoot, "testing", "matchstick-compat", "suites.json"), "utf8")) as { repo: string; commit: string; dir?: string }[];
const cores = availableParallelism();
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const busy = (f: Figure): string => (f.cpuMs / f.wallMs).toFixed(2);
const rows: string[] = [];
for (const suite of list.filter((x) => !values.only || values.only.includes(x.repo))) {
  const dir = join(values.suites, `${suite.repo.replace("/", "+")}@${suite.commit.slice(0, 7)}`, suite.dir ?? "");
  if (!existsSync(join(dir, ".compat-prepared")) && !existsSync(join(dir, "..", ".compat-prepared"))) continue;
  if (!existsSync(join(dir, "node_modules"))) continue;
  try {
    // Before: Matchstick's exact flags (binaryen's optimizer) in one compiler; now: no optimizer, one compiler per core.
    const before = timed(dir, "cold", 1, true);
    const optimized = timed(dir, "cold", cores, true);
    const single = timed(dir, "cold", 1);
    const parallel = timed(dir, "cold", cores);
    const warm = timed(dir, "warm", cores);
    const all = [before, optimized, single, parallel, warm];
    const same = all.every((f) => f.passed === before.passed && f.failed === before.failed) ? "same results" : "RESULTS DIFFER";
    rows.push(
      `| ${suite.repo} | ${parallel.files} | ${s(before.wallMs)} (${busy(before)}) | ${s(optimized.wallMs)} (${busy(optimized)}) | ${s(single.wallMs)} (${busy(single)}) | ${s(parallel.wallMs)} (${busy(parallel)}) | ${(before.wallMs / parallel.wallMs).toFixed(1)}x | ${s(warm.wallMs)} | ${parallel.passed}/${parallel.failed}, ${same} |`,
    );
    console.log(rows.at(-1));
  } catch (error) {
    console.log(`| ${suite.repo} | ${(error as Error).message} |`);
  }
}
if (rows.length === 0) console.log(`\nno prepared public suites under ${values.suites} (run npm run compat:matchstick first)`);
else {
  console.log(`\nPublic suites on ${cores} cores (load average ${loadavg().map((x) => x.toFixed(1)).join(", ")}): cold = every file recompiled; (n) = busy cores, process CPU time / wall time`);
  console.log(
    `| Suite | Files | Cold, --optimize -j 1 (before) | Cold, --optimize -j ${cores} | Cold, -j 1 | Cold, -j ${cores} (default) | Before / default | Warm | Passed/failed |\n|---|---|---|---|---|---|---|---|---|`,
  );
  for (const r of rows) console.log(r);
}
