// `gnd test` on the local node: the test files found (gnd's discovery: *.json and *.test.json under
// the given files and folders, `tests/` by default, names starting with a letter or digit, sorted), the
// subgraph built once with the project's graph-cli (or taken from build/ with skipBuild), then each file
// on a fresh node, reported as gnd reports it.
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { runGraphCli, stripAnsi } from "../lib/graphCli.js";
import { formatFailures, formatSummary, formatTestResult, testPassed, type TestResult } from "./report.js";
import { runTestFile } from "./runTestFile.js";
import { GndTestError } from "./testFile.js";

export interface RunJsonTestsOptions {
  /** The subgraph project (default: the working directory). */
  root?: string;
  /** Files or folders of tests (default: tests/). */
  paths?: string[];
  /** The manifest, relative to root (default subgraph.yaml). */
  manifest?: string;
  /** Use root/build/subgraph.yaml as it is. */
  skipBuild?: boolean;
  /** Every line of the report. */
  print?: (line: string) => void;
  /** The nodes' own log. */
  nodeLog?: (line: string) => void;
}

export interface JsonTestsOutcome {
  results: TestResult[];
  passed: number;
  failed: number;
}

export async function runJsonTests(options: RunJsonTestsOptions = {}): Promise<JsonTestsOutcome> {
  const root = resolve(options.root ?? ".");
  const print = options.print ?? ((line: string) => console.log(line));
  const files = await discoverTestFiles((options.paths?.length ? options.paths : ["tests"]).map((p) => resolve(root, p)));
  if (files.length === 0) throw new GndTestError(`no test files (*.json, *.test.json) under ${(options.paths ?? ["tests"]).join(", ")}`);
  let buildDir = join(root, "build");
  let scratch: string | null = null;
  try {
    if (!options.skipBuild) {
      scratch = await mkdtemp(join(tmpdir(), "gnd-test-build-"));
      buildDir = scratch;
      print("→ Building subgraph");
      const built = await runGraphCli(["build", options.manifest ?? "subgraph.yaml", "--output-dir", buildDir], { cwd: root });
      if (built.code !== 0) throw new GndTestError(`graph build failed:\n${stripAnsi(built.stdout + built.stderr).trim()}`);
      print("✔ Build complete");
    }
    const results: TestResult[] = [];
    for (const file of files) {
      print(`→ Running ${relative(root, file)}`);
      const result = await runTestFile(file, { manifestPath: join(buildDir, "subgraph.yaml"), projectDir: root, ...(options.nodeLog ? { log: options.nodeLog } : {}) });
      results.push(result);
      print(formatTestResult(result));
    }
    const failures = formatFailures(results);
    if (failures) print(failures);
    print("");
    print(formatSummary(results));
    const passed = results.filter(testPassed).length;
    return { results, passed, failed: results.length - passed };
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

export async function discoverTestFiles(paths: string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!/^[\p{L}\p{N}]/u.test(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name.endsWith(".json")) found.push(path);
    }
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info) continue;
    if (info.isDirectory()) await walk(path);
    else if (basename(path).endsWith(".json")) found.push(path);
  }
  return [...new Set(found)].sort();
}
