// Child-process entry of the runner benchmark: one timed run of a project's suite, cold (every file
// recompiled) or warm (the cache is fresh), printed as one JSON line. A child per run so that each
// suite's AssemblyScript loads alone and the process's CPU time counts every thread.
// `tsx test-runner/compat/benchSuite.ts <dir> <cold|warm> <jobs> [optimize]`
import { runMatchstick } from "subgraph-workbench/test-runner";

const [root, mode, jobsText, optimizeText] = process.argv.slice(2);
if (root === undefined || (mode !== "cold" && mode !== "warm") || jobsText === undefined) {
  console.error("usage: tsx test-runner/compat/benchSuite.ts <dir> <cold|warm> <jobs>");
  process.exit(2);
}
const cpuBefore = process.cpuUsage();
const started = performance.now();
const summary = await runMatchstick({
  root,
  patterns: [],
  coverage: false,
  recompile: mode === "cold",
  jobs: Number(jobsText),
  optimize: optimizeText === "optimize",
  color: false,
  write: () => {},
});
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
console.log(
  JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, files: summary.files, compiled: summary.compiled.length, passed: summary.passed, failed: summary.failed }),
);
