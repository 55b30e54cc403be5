// `npm test`: every suite, then one closing line `N passed, N failed` that sums them.
// Suites: vitest (TypeScript tests across the workspace), the workbench's `test` command on the subgraph's
// Matchstick tests (tests/*.test.ts) and its `test:json` command (tests/*.json). The workbench package is
// built first (incrementally), so that the project uses its current code as an installed package.
import { spawn } from "node:child_process";
import { readFile, rm, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { graphCliEnv } from "subgraph-workbench/lib/graphCli";

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  exitCode: number;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, onOutput?: (text: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      onOutput?.(chunk.toString());
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runVitest(name: string, extraArgs: string[]): Promise<SuiteResult> {
  const dir = await mkdtemp(join(tmpdir(), "vitest-report-"));
  const report = join(dir, "report.json");
  const exitCode = await run("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extraArgs]);
  let passed = 0;
  let failed = 0;
  try {
    const json = JSON.parse(await readFile(report, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: { status: string; assertionResults: { status: string }[] }[];
    };
    passed = json.numPassedTests;
    // A file that failed without a failing test (it did not load, or a hook threw) counts as one failure.
    const brokenFiles = json.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length;
    failed = json.numFailedTests + brokenFiles;
  } catch {
    failed = 1;
  }
  await rm(dir, { recursive: true, force: true });
  return { name, passed, failed: exitCode !== 0 && failed === 0 ? 1 : failed, exitCode };
}

/** A CLI suite whose last line matching `summary` gives its passed and failed counts. */
async function runCliSuite(name: string, command: string, args: string[], summary: RegExp): Promise<SuiteResult> {
  let tail = "";
  const exitCode = await run(command, args, {}, (text) => {
    tail = (tail + text).slice(-4000);
  });
  const match = [...tail.matchAll(summary)].pop();
  const passed = match ? Number(match[1]) : 0;
  const failed = match ? Number(match[2]) : 0;
  return { name, passed, failed: exitCode !== 0 && failed === 0 ? 1 : failed, exitCode };
}

async function runSubgraphTests(): Promise<SuiteResult> {
  // The Matchstick tests import generated/ (not committed), as under `graph test`.
  const codegen = await run("graph", ["codegen", "--output-dir", "generated/"], graphCliEnv());
  if (codegen !== 0) return { name: "matchstick", passed: 0, failed: 1, exitCode: codegen };
  return runCliSuite("matchstick", "subgraph-workbench", ["test"], /^(\d+) passed, (\d+) failed/gm);
}

/** The subgraph's tests in graph-node's `gnd test` JSON format (tests/*.json), on the local node. */
function runJsonTests(): Promise<SuiteResult> {
  return runCliSuite("gnd test (JSON)", "subgraph-workbench", ["test:json"], /^Tests: (\d+) passed, (\d+) failed/gm);
}

const built = await run("npm", ["run", "--silent", "build:workbench"]);
if (built !== 0) {
  console.log("the workbench package did not build");
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const args = process.argv.slice(2);
// The packed workbench in an outside project runs alone, after the others: it installs about 570 MB and
// runs a node, the dev loop and graph-node, which beside the other suites on two cores starved their nodes.
const OUTSIDE_PROJECT = "testing/outsideProject.test.ts";
const results: SuiteResult[] = [await runVitest("vitest", [...args, "--exclude", OUTSIDE_PROJECT])];
if (args.length === 0) results.push(await runVitest("vitest (the package in an outside project)", [OUTSIDE_PROJECT]));
results.push(await runSubgraphTests());
// After the Matchstick suite: its `graph codegen` made generated/, which the build needs.
if (args.length === 0) results.push(await runJsonTests());

for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.some((r) => r.exitCode !== 0) || failed > 0 ? 1 : 0);
