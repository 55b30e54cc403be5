// The runner: resolve the project (matchstick.yaml, manifest, schema), find and compile the test
// files (cached), then either report coverage (-c) or run every file and print Matchstick's report
// followed by the closing line `N passed, N failed`.
import { readFileSync } from "node:fs";
import { parseSubgraphSchema, type SubgraphSchema } from "../subgraph-schema/index.js";
import { cacheKey, isFresh, recordKey } from "./cache.js";
import { createCompiler, MATCHSTICK_ASC_FLAGS, type Compiler } from "./compile.js";
import { resolveConfig, type RunnerConfig } from "./config.js";
import { coverageForWasmFiles, percent } from "./coverage.js";
import { discoverTests, displayPath, type TestFile } from "./discover.js";
import { ConfigError, RunnerError } from "./errors.js";
import { executeFile, type TestResult } from "./execute.js";
import { formatError } from "./failure.js";
import { createLogger, type Logger } from "./logger.js";
import { readManifest, type ManifestInfo } from "./manifest.js";
import { join } from "node:path";

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
}

export interface RunSummary {
  passed: number;
  failed: number;
  exitCode: number;
  /** Files that did not compile (display paths). */
  compileFailures: string[];
  /** Files compiled this run (the others came from the cache). */
  compiled: string[];
  /** Set when log.critical or a Matchstick-level error stopped the run. */
  aborted: string | null;
}

interface Compiled {
  file: TestFile;
  wasm: string;
}

const wasmPath = (config: RunnerConfig, file: TestFile): string => join(config.testsFolder, ".bin", `${file.name}.wasm`);

async function compileAll(config: RunnerConfig, files: TestFile[], recompile: boolean, logger: Logger, summary: RunSummary): Promise<Compiled[]> {
  let compiler: Compiler | null = null;
  const out: Compiled[] = [];
  for (const file of files) {
    const wasm = wasmPath(config, file);
    // The compiler version is only known once asc is loaded; load it lazily so a warm run skips it.
    const keyFor = (version: string): string =>
      cacheKey({ root: config.root, libsFolder: config.libsFolder, entry: file.path, compilerVersion: version, flags: MATCHSTICK_ASC_FLAGS });
    const ascVersion = readAscVersion(config.libsFolder);
    const key = keyFor(ascVersion);
    if (!recompile && isFresh(wasm, key)) {
      logger.log("info", `${logger.paint(file.name, "blue")} skipped!`);
      out.push({ file, wasm });
      continue;
    }
    logger.log("info", `Compiling ${logger.paint(file.name, "blue")}...`);
    compiler ??= await createCompiler({ root: config.root, libsFolder: config.libsFolder });
    const result = await compiler.compile(file.path, wasm);
    if (!result.ok) {
      logger.raw(result.diagnostics);
      logger.log("error", `${displayPath(config.root, file.path)} failed to compile`);
      summary.compileFailures.push(displayPath(config.root, file.path));
      continue;
    }
    recordKey(wasm, key);
    summary.compiled.push(displayPath(config.root, file.path));
    out.push({ file, wasm });
  }
  return out;
}

function readAscVersion(libsFolder: string): string {
  for (const dir of [libsFolder, join(import.meta.dirname, "..", "..", "node_modules")]) {
    try {
      return (JSON.parse(readFileSync(join(dir, "assemblyscript", "package.json"), "utf8")) as { version: string }).version;
    } catch {
      // try the next one
    }
  }
  return "unknown";
}

function loadProject(config: RunnerConfig): { manifest: ManifestInfo; schema: SubgraphSchema } {
  const manifest = readManifest(config.manifestPath);
  try {
    return { manifest, schema: parseSubgraphSchema(readFileSync(manifest.schemaPath, "utf8")) };
  } catch (cause) {
    throw new ConfigError(`schema could not be parsed: ${(cause as Error).message}`, { cause, details: { schemaPath: manifest.schemaPath } });
  }
}

export async function runMatchstick(options: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const logger = createLogger({ write: options.write, color: options.color });
  const summary: RunSummary = { passed: 0, failed: 0, exitCode: 0, compileFailures: [], compiled: [], aborted: null };
  const finish = (): RunSummary => {
    if (!options.coverage) logger.styled(`${summary.passed} passed, ${summary.failed} failed`);
    summary.exitCode = summary.failed > 0 || summary.aborted !== null || summary.compileFailures.length > 0 ? 1 : 0;
    return summary;
  };

  let config: RunnerConfig;
  let project: { manifest: ManifestInfo; schema: SubgraphSchema };
  let files: TestFile[];
  try {
    config = resolveConfig(options.root);
    project = loadProject(config);
    files = discoverTests(config.testsFolder, options.patterns);
  } catch (err) {
    if (!(err instanceof RunnerError)) throw err;
    logger.log("critical", err.message);
    summary.aborted = err.message;
    return finish();
  }
  for (const t of project.manifest.unsupportedTemplates) logger.log("warning", `Template with kind \`${t.kind}\` is not supported by matchstick.`);

  logger.styled("Compiling...\n", "green");
  const compiled = await compileAll(config, files, options.recompile, logger, summary);
  summary.failed += summary.compileFailures.length;

  if (options.coverage) {
    logger.styled("\nRunning in coverage report mode.\n", "cyan");
    logger.styled("Generating coverage report 📝\n", "cyan");
    const report = await coverageForWasmFiles(config.libsFolder, project.manifest.sources, compiled.map((c) => c.wasm));
    for (const source of report.sources) {
      logger.styled(`Handlers for source '${source.name}':`);
      for (const h of source.handlers) logger.styled(`Handler '${h.handler}' is ${h.tested ? "tested" : "not tested"}.`, h.tested ? "green" : "red");
      logger.styled(`Test coverage: ${percent(source.called, source.total)}% (${source.called}/${source.total} handlers).\n`);
    }
    logger.styled(`Global test coverage: ${percent(report.called, report.total)}% (${report.called}/${report.total} handlers).\n`);
    return finish();
  }

  logger.styled("\nIgniting tests 🔥", "red");
  const failedSuites: { name: string; failures: TestResult[] }[] = [];
  for (const { file, wasm } of compiled) {
    logger.styled(`\n${file.name}`, "blue");
    logger.styled("-".repeat(50));
    logger.addIndent();
    try {
      const module = await WebAssembly.compile(readFileSync(wasm));
      const source = { path: displayPath(config.root, file.path), text: readFileSync(file.path, "utf8") };
      const result = await executeFile({ module, schema: project.schema, templateKinds: project.manifest.templates, root: config.root, logger, source });
      summary.passed += result.passed;
      summary.failed += result.failed;
      if (result.failures.length > 0) failedSuites.push({ name: file.name, failures: result.failures });
      if (result.empty) logger.log("warning", `No tests registered in ${displayPath(config.root, file.path)} (is the file empty?)`);
      if (result.critical !== null) {
        logger.clearIndent();
        logger.log("critical", result.critical);
        summary.failed += 1;
        summary.aborted = result.critical;
        break;
      }
    } catch (err) {
      // A module that cannot be instantiated (a trap in top-level code, an unknown import) fails its file only.
      logger.log("error", `${displayPath(config.root, file.path)} could not run: ${formatError(err)}`);
      summary.failed += 1;
      failedSuites.push({ name: file.name, failures: [{ name: "(file)", passed: false, ms: 0, logs: `${formatError(err)}\n` }] });
    }
    logger.clearIndent();
  }

  if (summary.aborted === null) {
    if (summary.failed > 0) {
      logger.styled("\nFailed tests:\n", "red");
      for (const suite of failedSuites) {
        logger.styled(suite.name, "blue", "bold");
        logger.addIndent();
        for (const t of suite.failures) {
          logger.styled(t.name, "red", "bold");
          logger.raw(t.logs);
        }
        logger.subIndent();
      }
      for (const f of summary.compileFailures) logger.styled(`${f} (did not compile)`, "red", "bold");
      const total = summary.failed + summary.passed;
      logger.styled(`${logger.paint(`${summary.failed} failed`, "red")}, ${logger.paint(`${summary.passed} passed`, "green")}, ${total} total`);
    } else {
      logger.styled(`\nAll ${summary.passed} tests passed! 😎`, "green");
    }
  }
  logger.styled(`\n[${new Date().toUTCString()}] Program executed in: ${((performance.now() - started) / 1000).toFixed(3)}s.`);
  return finish();
}
