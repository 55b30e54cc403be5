// The runner: resolve the project (matchstick.yaml, manifest, schema), find and compile the test
// files (cached), then either report coverage (-c) or run every file in Matchstick's semantics and
// print Matchstick's report followed by the closing line `N passed, N failed`. With `strict`, the
// suite runs a second time on graph-node's semantics and each test whose verdict changes is listed.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createStepProgress } from "../lib/stepProgress.js";
import { cacheKey, isFresh, recordKey } from "./cache.js";
import { ascFlags } from "./compile.js";
import { createCompilePool } from "./compilePool.js";
import { resolveConfig, type RunnerConfig } from "./config.js";
import { coverageForWasmFiles, percent } from "./coverage.js";
import { discoverTests, displayPath, type TestFile } from "./discover.js";
import { RunnerError } from "./errors.js";
import { createLogger, type Logger } from "./logger.js";
import { loadProject, type Project } from "./project.js";
import { runFiles, type CompiledFile, type RunOutcome } from "./runFiles.js";
import { compareVerdicts, printStrictReport, type VerdictChange } from "./strict.js";
import type { StoreSemantics } from "./matchstick/testStore.js";

export interface RunOptions {
  /** Project root (default: the working directory). */
  root: string;
  /** `graph test <name>...` patterns. */
  patterns: string[];
  coverage: boolean;
  /** `-r`: recompile even when the cache is fresh. */
  recompile: boolean;
  write(text: string): void;
  color: boolean;
  /** Store semantics of the run (default "matchstick"). */
  semantics?: StoreSemantics;
  /** `--strict`: also run on graph-node's semantics and report every test whose verdict changes. */
  strict?: boolean;
  /** `-j`: files compiled in parallel on worker threads (default: one per core). */
  jobs?: number;
  /** `--optimize`: compile tests with Matchstick's exact flags, binaryen's optimizer included (coverage always does). */
  optimize?: boolean;
  /** Show the compile's progress on stderr (the command line's runs): a bar on a terminal, else a line every few seconds. */
  progress?: boolean;
}

export interface RunSummary {
  /** Test files found. */
  files: number;
  passed: number;
  failed: number;
  exitCode: number;
  /** Files that did not compile (display paths). */
  compileFailures: string[];
  /** Files compiled this run (the others came from the cache). */
  compiled: string[];
  /** Set when log.critical or a Matchstick-level error stopped the run. */
  aborted: string | null;
  /** Tests that never ran because the run stopped. */
  notRun: number;
  /** With `strict`: the tests whose verdict differs on graph-node's semantics. */
  verdictChanges: VerdictChange[] | null;
  /** With `strict`: why graph-node's semantics could not run (the schema fails its checks here), else null. */
  strictSkipped: string | null;
}

const wasmPath = (config: RunnerConfig, file: TestFile): string => join(config.testsFolder, ".bin", `${file.name}.wasm`);

async function compileAll(config: RunnerConfig, files: TestFile[], options: RunOptions, logger: Logger, summary: RunSummary): Promise<CompiledFile[]> {
  const ascVersion = readAscVersion(config.libsFolder);
  // Coverage reads Matchstick's optimized wasm; test runs skip binaryen's optimizer unless --optimize.
  const flags = ascFlags(options.coverage || options.optimize === true);
  const stale: { file: TestFile; display: string; wasm: string; key: string }[] = [];
  const fresh = new Set<TestFile>();
  for (const file of files) {
    const wasm = wasmPath(config, file);
    const key = cacheKey({ root: config.root, libsFolder: config.libsFolder, entry: file.path, compilerVersion: ascVersion, flags });
    if (!options.recompile && isFresh(wasm, key)) {
      logger.log("info", `${logger.paint(file.name, "blue")} skipped!`);
      fresh.add(file);
    } else stale.push({ file, display: displayPath(config.root, file.path), wasm, key });
  }
  const compiled = new Set<TestFile>();
  if (stale.length > 0) {
    // One compiler per core on worker threads (-j); never in this thread, where an asc crash would end the run.
    const jobs = Math.min(options.jobs ?? availableParallelism(), stale.length);
    const compiler = createCompilePool({ root: config.root, libsFolder: config.libsFolder, jobs, flags });
    try {
      const progress = options.progress ? createStepProgress({ label: "compiling", total: stale.length, unit: "test files" }) : null;
      const results = stale.map((s) => {
        logger.log("info", `Compiling ${logger.paint(s.file.name, "blue")}...`);
        return compiler.compile(s.file.path, s.wasm).finally(() => progress?.step(s.file.name));
      });
      const settled = await Promise.all(results).finally(() => progress?.stop());
      for (const [index, result] of settled.entries()) {
        const s = stale[index]!;
        if (!result.ok) {
          logger.raw(result.diagnostics);
          logger.log("error", `${s.display} failed to compile`);
          summary.compileFailures.push(s.display);
          continue;
        }
        recordKey(s.wasm, s.key);
        summary.compiled.push(s.display);
        compiled.add(s.file);
      }
    } finally {
      await compiler.close();
    }
  }
  return files
    .filter((f) => fresh.has(f) || compiled.has(f))
    .map((file) => ({ file, display: displayPath(config.root, file.path), wasm: wasmPath(config, file) }));
}

function readAscVersion(libsFolder: string): string {
  for (const dir of [libsFolder, join(import.meta.dirname, "..", "node_modules")]) {
    try {
      return (JSON.parse(readFileSync(join(dir, "assemblyscript", "package.json"), "utf8")) as { version: string }).version;
    } catch {
      // try the next one
    }
  }
  return "unknown";
}

async function reportCoverage(config: RunnerConfig, project: Project, compiled: CompiledFile[], logger: Logger): Promise<void> {
  logger.styled("\nRunning in coverage report mode.\n", "cyan");
  logger.styled("Generating coverage report 📝\n", "cyan");
  const report = await coverageForWasmFiles(config.libsFolder, project.manifest.sources, compiled.map((c) => c.wasm));
  for (const source of report.sources) {
    logger.styled(`Handlers for source '${source.name}':`);
    for (const h of source.handlers) logger.styled(`Handler '${h.handler}' is ${h.tested ? "tested" : "not tested"}.`, h.tested ? "green" : "red");
    logger.styled(`Test coverage: ${percent(source.called, source.total)}% (${source.called}/${source.total} handlers).\n`);
  }
  logger.styled(`Global test coverage: ${percent(report.called, report.total)}% (${report.called}/${report.total} handlers).\n`);
}

/** Matchstick's closing report: the failed tests with their logs, then its summary line. */
function reportFailures(outcome: RunOutcome, compileFailures: string[], logger: Logger): void {
  if (outcome.aborted !== null) {
    if (outcome.notRun > 0) logger.styled(`\nThe run stopped: ${outcome.notRun} registered test${outcome.notRun === 1 ? "" : "s"} did not run.`, "red");
    return;
  }
  if (outcome.failed === 0) {
    logger.styled(`\nAll ${outcome.passed} tests passed! 😎`, "green");
    return;
  }
  logger.styled("\nFailed tests:\n", "red");
  for (const file of outcome.files) {
    if (file.failures.length === 0 && file.couldNotRun === null) continue;
    logger.styled(file.file.name, "blue", "bold");
    logger.addIndent();
    for (const t of file.failures) {
      logger.styled(t.name, "red", "bold");
      logger.raw(t.logs);
    }
    if (file.couldNotRun !== null) {
      logger.styled("(file)", "red", "bold");
      logger.raw(`${file.couldNotRun}\n`);
    }
    logger.subIndent();
  }
  for (const f of compileFailures) logger.styled(`${f} (did not compile)`, "red", "bold");
  const total = outcome.failed + outcome.passed;
  logger.styled(`${logger.paint(`${outcome.failed} failed`, "red")}, ${logger.paint(`${outcome.passed} passed`, "green")}, ${total} total`);
}

export async function runMatchstick(options: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const logger = createLogger({ write: options.write, color: options.color });
  const semantics = options.semantics ?? "matchstick";
  const summary: RunSummary = { files: 0, passed: 0, failed: 0, exitCode: 0, compileFailures: [], compiled: [], aborted: null, notRun: 0, verdictChanges: null, strictSkipped: null };
  const finish = (): RunSummary => {
    if (!options.coverage) logger.styled(`${summary.passed} passed, ${summary.failed} failed`);
    const changed = (summary.verdictChanges?.length ?? 0) > 0;
    summary.exitCode = summary.failed > 0 || summary.aborted !== null || summary.compileFailures.length > 0 || changed ? 1 : 0;
    return summary;
  };

  let config: RunnerConfig;
  let project: Project;
  let files: TestFile[];
  try {
    config = resolveConfig(options.root);
    project = loadProject(config);
    if (project.schema === null && semantics === "graph-node") {
      throw new RunnerError(`schema.graphql does not pass the graph-node schema checks here: ${project.schemaError}`);
    }
    files = discoverTests(config.testsFolder, options.patterns);
    summary.files = files.length;
  } catch (err) {
    if (!(err instanceof RunnerError)) throw err;
    logger.log("critical", err.message);
    summary.aborted = err.message;
    return finish();
  }
  for (const t of project.manifest.unsupportedTemplates) logger.log("warning", `Template with kind \`${t.kind}\` is not supported by matchstick.`);
  if (project.schemaError !== null) logger.log("warning", `schema.graphql does not pass the graph-node schema checks here (${project.schemaError}); Matchstick does not check it.`);

  logger.styled("Compiling...\n", "green");
  let compiled: CompiledFile[];
  try {
    compiled = await compileAll(config, files, options, logger, summary);
  } catch (err) {
    if (!(err instanceof RunnerError)) throw err;
    logger.log("critical", err.message);
    summary.aborted = err.message;
    return finish();
  }

  if (options.coverage) {
    summary.failed += summary.compileFailures.length;
    await reportCoverage(config, project, compiled, logger);
    return finish();
  }

  const modules = new Map<string, WebAssembly.Module>();
  const outcome = await runFiles(compiled, { project, semantics, root: config.root, logger, modules });
  summary.passed = outcome.passed;
  summary.failed = outcome.failed + summary.compileFailures.length;
  summary.aborted = outcome.aborted;
  summary.notRun = outcome.notRun;
  reportFailures({ ...outcome, failed: summary.failed }, summary.compileFailures, logger);

  if (options.strict === true && project.schema === null) {
    summary.strictSkipped = `the schema does not pass the graph-node schema checks here: ${project.schemaError}`;
    logger.styled(`\n--strict: graph-node's semantics not run: the schema does not pass graph-node's checks here (${project.schemaError}).`, "yellow");
  } else if (options.strict === true) {
    const quiet = createLogger({ write: () => {}, color: false });
    const other = semantics === "matchstick" ? "graph-node" : "matchstick";
    const second = await runFiles(compiled, { project, semantics: other, root: config.root, logger: quiet, modules });
    summary.verdictChanges = compareVerdicts(outcome, second);
    printStrictReport(logger, semantics, other, summary.verdictChanges, second);
  }
  logger.styled(`\n[${new Date().toUTCString()}] Program executed in: ${((performance.now() - started) / 1000).toFixed(3)}s.`);
  return finish();
}
