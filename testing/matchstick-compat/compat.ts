// Re-runs public Matchstick suites unchanged on this runner: each listed repository is exported at
// its commit from a local copy (a folder of bare mirrors, or of checkouts: nothing is downloaded from
// GitHub), the graph-cli, graph-ts, matchstick-as (and assemblyscript) versions its lockfile pins are
// installed from the npm registry beside it, its own preparation commands run (templating, codegen),
// and the suite runs with --strict: the verdicts in Matchstick's semantics and those that change on
// graph-node's.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { projectRoot } from "../../hardhat/projectRoot.js";
import type { RunSummary, VerdictChange } from "subgraph-workbench/test-runner";
import { declaredRange, lockedVersion } from "./lockVersions.js";

export interface CompatSuite {
  /** `owner/name` on GitHub. */
  repo: string;
  /** The full commit hash the suite runs at. */
  commit: string;
  /** DEX, lending, NFT, DAO, bridge ... (for the table). */
  kind: string;
  /** The subgraph's folder inside the repository ("" for the top). */
  dir?: string;
  /** Packages the preparation needs beyond graph-cli, graph-ts, matchstick-as and assemblyscript (e.g. mustache). */
  packages?: string[];
  /** Shell commands run in the subgraph folder before the tests, as the repository's own scripts do. */
  prepare: string[];
  /** Versions used instead of the pinned ones, when the pinned one cannot install here (README says why). */
  overrides?: Record<string, string>;
}

export type CompatSource = { mirrors: string } | { checkouts: string };

export interface CompatOptions {
  suites: CompatSuite[];
  source: CompatSource;
  /** Scratch folder outside the project: exports, dependencies and logs go there. */
  work: string;
  /** Progress lines. */
  log(line: string): void;
}

export interface CompatResult {
  suite: CompatSuite;
  /** Installed versions by package name. */
  versions: Record<string, string>;
  files: number;
  passed: number;
  failed: number;
  compileFailures: string[];
  aborted: string | null;
  notRun: number;
  changes: VerdictChange[];
  /** Why --strict's second run could not happen, else null. */
  strictSkipped: string | null;
  /** Set when the suite could not be exported, installed or prepared. */
  error: string | null;
  /** The runner's full output. */
  logFile: string;
  seconds: number;
}

const CORE = ["@graphprotocol/graph-cli", "@graphprotocol/graph-ts", "matchstick-as", "assemblyscript"];

const slugOf = (repo: string): string => repo.replace("/", "+");

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${[command, ...args].join(" ")} failed (exit ${result.status ?? result.signal}):\n${output}`);
  }
}

function exportTree(suite: CompatSuite, source: CompatSource, target: string): void {
  const marker = join(target, ".compat-commit");
  if (existsSync(marker) && readFileSync(marker, "utf8") === suite.commit) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  if ("mirrors" in source) {
    const gitDir = [join(source.mirrors, slugOf(suite.repo), "repo"), join(source.mirrors, slugOf(suite.repo))].find((d) => existsSync(join(d, "HEAD")));
    if (gitDir === undefined) throw new Error(`no git mirror of ${suite.repo} under ${source.mirrors}`);
    const tar = `${target}.tar`;
    // A snapshot may lack its largest blobs (a committed binary): leave those files out, one by one.
    const excluded: string[] = [];
    for (;;) {
      const args = [`--git-dir=${gitDir}`, "archive", "--format=tar", `--output=${tar}`, suite.commit, "--", ".", ...excluded.map((p) => `:(exclude)${p}`)];
      const archive = spawnSync("git", args, { cwd: target, encoding: "utf8" });
      if (archive.status === 0) break;
      const missing = /invalid object \S+ \S+ for '([^']+)'/.exec(archive.stderr ?? "")?.[1];
      if (missing === undefined || excluded.length >= 20) throw new Error(`git archive of ${suite.repo} failed: ${(archive.stderr ?? "").trim()}`);
      excluded.push(missing);
    }
    run("tar", ["-xf", tar, "-C", target], target);
    rmSync(tar);
  } else {
    const from = join(source.checkouts, slugOf(suite.repo));
    if (!existsSync(from)) throw new Error(`no checkout of ${suite.repo} at ${from}`);
    if (existsSync(join(from, ".git"))) {
      const head = spawnSync("git", ["-C", from, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
      if (head !== suite.commit) throw new Error(`the checkout of ${suite.repo} is at ${head}, not ${suite.commit}`);
    }
    cpSync(from, target, { recursive: true, filter: (src) => !/[\\/](node_modules|\.git)$/.test(src) });
  }
  writeFileSync(marker, suite.commit);
}

/** Installs the pinned versions into `<target>.deps` and links its node_modules into the subgraph folder. */
function install(suite: CompatSuite, target: string, subgraph: string): Record<string, string> {
  const wanted: Record<string, string> = {};
  for (const name of [...CORE, ...(suite.packages ?? [])]) {
    const version = suite.overrides?.[name] ?? lockedVersion(subgraph, target, name) ?? declaredRange(subgraph, name) ?? declaredRange(target, name);
    if (version !== null) wanted[name] = version;
    else if (name !== "assemblyscript") throw new Error(`${suite.repo} names no version of ${name}`);
  }
  const deps = `${target}.deps`;
  const manifest = JSON.stringify({ name: "compat-deps", private: true, dependencies: wanted }, null, 2);
  const marker = join(deps, ".installed");
  if (!(existsSync(marker) && readFileSync(marker, "utf8") === manifest)) {
    rmSync(deps, { recursive: true, force: true });
    mkdirSync(deps, { recursive: true });
    writeFileSync(join(deps, "package.json"), manifest);
    run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--legacy-peer-deps", "--loglevel=error"], deps);
    writeFileSync(marker, manifest);
  }
  linkWorkspaces(target, join(deps, "node_modules"));
  const link = join(subgraph, "node_modules");
  if (!existsSync(link)) symlinkSync(join(deps, "node_modules"), link);
  const versions: Record<string, string> = {};
  for (const name of Object.keys(wanted)) {
    try {
      versions[name] = (JSON.parse(readFileSync(join(deps, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
    } catch {
      versions[name] = "?";
    }
  }
  return versions;
}

/** Yarn/npm workspaces (`packages/*`) are linked into node_modules by name, as the workspace install does. */
function linkWorkspaces(root: string, nodeModules: string): void {
  const path = join(root, "package.json");
  if (!existsSync(path)) return;
  const pkg = JSON.parse(readFileSync(path, "utf8")) as { workspaces?: string[] | { packages?: string[] } };
  const patterns = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces?.packages ?? []);
  for (const pattern of patterns) {
    const dirs = pattern.endsWith("/*") ? (existsSync(join(root, pattern.slice(0, -2))) ? readdirSync(join(root, pattern.slice(0, -2))).map((d) => join(pattern.slice(0, -2), d)) : []) : [pattern];
    for (const dir of dirs) {
      const manifest = join(root, dir, "package.json");
      if (!existsSync(manifest)) continue;
      const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name;
      if (name === undefined || existsSync(join(nodeModules, name))) continue;
      mkdirSync(dirname(join(nodeModules, name)), { recursive: true });
      symlinkSync(join(root, dir), join(nodeModules, name));
    }
  }
}

function prepare(suite: CompatSuite, target: string, subgraph: string): void {
  const marker = join(target, ".compat-prepared");
  const steps = JSON.stringify(suite.prepare);
  if (existsSync(marker) && readFileSync(marker, "utf8") === steps) return;
  const env = { ...process.env, PATH: `${join(subgraph, "node_modules", ".bin")}${delimiter}${process.env["PATH"] ?? ""}` };
  for (const step of suite.prepare) run("sh", ["-c", step], subgraph, env);
  writeFileSync(marker, steps);
}

export async function runCompat(options: CompatOptions): Promise<CompatResult[]> {
  mkdirSync(options.work, { recursive: true });
  const results: CompatResult[] = [];
  for (const suite of options.suites) {
    const started = performance.now();
    const target = join(options.work, `${slugOf(suite.repo)}@${suite.commit.slice(0, 7)}`);
    const subgraph = join(target, suite.dir ?? "");
    const logFile = `${target}.log`;
    const result: CompatResult = {
      suite,
      versions: {},
      files: 0,
      passed: 0,
      failed: 0,
      compileFailures: [],
      aborted: null,
      notRun: 0,
      changes: [],
      strictSkipped: null,
      error: null,
      logFile,
      seconds: 0,
    };
    results.push(result);
    options.log(`${suite.repo}@${suite.commit.slice(0, 7)}: export, install, prepare`);
    try {
      exportTree(suite, options.source, target);
      result.versions = install(suite, target, subgraph);
      prepare(suite, target, subgraph);
    } catch (err) {
      result.error = (err as Error).message;
      options.log(`  ${result.error.split("\n")[0]}`);
      continue;
    }
    const summaryFile = `${target}.summary.json`;
    rmSync(summaryFile, { force: true });
    // The workbench's command, in the suite's own folder, as a user runs it: one suite per process
    // (AssemblyScript keeps process-wide state, and two versions cannot compile in one process).
    const child = spawnSync(process.execPath, [join(projectRoot, "node_modules", "subgraph-workbench", "bin", "subgraph-workbench.js"), "test", "--strict", "--report", summaryFile], {
      cwd: subgraph,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    writeFileSync(logFile, `${child.stdout ?? ""}${child.stderr ?? ""}`);
    if (!existsSync(summaryFile)) {
      result.error = `the runner stopped (exit ${child.status ?? child.signal}); see ${logFile}`;
      options.log(`  ${result.error}`);
      continue;
    }
    const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as RunSummary;
    Object.assign(result, {
      files: summary.files,
      passed: summary.passed,
      failed: summary.failed,
      compileFailures: summary.compileFailures,
      aborted: summary.aborted,
      notRun: summary.notRun,
      changes: summary.verdictChanges ?? [],
      strictSkipped: summary.strictSkipped,
      seconds: (performance.now() - started) / 1000,
    });
    options.log(`  ${summary.passed} passed, ${summary.failed} failed; ${result.changes.length} verdicts change on graph-node (${logFile})`);
  }
  return results;
}
