// Runs the compiled test files in one store semantics, as Matchstick's main.rs does: every file is
// instantiated and its tests registered first (a critical error there stops the run before any test),
// then the files run one after the other. A critical error while running (log.critical, a failing
// hook) stops the run: the tests after it never run and are counted as such.
import { existsSync, readFileSync } from "node:fs";
import { sourceLocator, type SourceLocator } from "../lib/wasmStack.js";
import { CriticalAbort } from "./errors.js";
import { prepareFile, runPreparedFile, type ExecuteDeps, type PreparedFile, type TestResult } from "./execute.js";
import { formatError } from "./failure.js";
import type { Logger } from "./logger.js";
import type { StoreSemantics } from "./matchstick/testStore.js";
import type { Project } from "./project.js";
import { countTests } from "./suite.js";
import type { TestFile } from "./discover.js";

export interface CompiledFile {
  file: TestFile;
  /** Path shown to the user (relative to the root). */
  display: string;
  wasm: string;
}

export interface FileOutcome {
  file: TestFile;
  display: string;
  /** Every test that ran, in order. */
  tests: TestResult[];
  failures: TestResult[];
  /** Set when the module could not be instantiated (it counts as one failure). */
  couldNotRun: string | null;
}

export interface RunOutcome {
  passed: number;
  failed: number;
  files: FileOutcome[];
  /** The critical message that stopped the run, if any. */
  aborted: string | null;
  /** Registered tests that never ran because the run stopped. */
  notRun: number;
}

export interface RunFilesDeps {
  project: Project;
  semantics: StoreSemantics;
  root: string;
  logger: Logger;
  /** Compiled modules by wasm path, shared between runs of one process. */
  modules: Map<string, WebAssembly.Module>;
}

type Prepared = { kind: "ready"; prepared: PreparedFile; deps: ExecuteDeps } | { kind: "broken"; error: string };

export async function runFiles(compiled: readonly CompiledFile[], deps: RunFilesDeps): Promise<RunOutcome> {
  const { project, logger } = deps;
  const outcome: RunOutcome = { passed: 0, failed: 0, files: [], aborted: null, notRun: 0 };
  const stop = (message: string): RunOutcome => {
    logger.clearIndent();
    logger.log("critical", message);
    outcome.failed += 1;
    outcome.aborted = message;
    return outcome;
  };

  const prepared: Prepared[] = [];
  for (const { file, display, wasm } of compiled) {
    let module = deps.modules.get(wasm);
    if (module === undefined) {
      module = await WebAssembly.compile(readFileSync(wasm));
      deps.modules.set(wasm, module);
    }
    const executeDeps: ExecuteDeps = {
      module,
      semantics: deps.semantics,
      schema: project.schema,
      mockSchema: project.mockSchema,
      templateKinds: project.manifest.templates,
      root: deps.root,
      logger,
      source: { path: display, text: readFileSync(file.path, "utf8") },
      ...locatorFor(wasm),
    };
    try {
      prepared.push({ kind: "ready", prepared: await prepareFile(executeDeps), deps: executeDeps });
    } catch (err) {
      if (err instanceof CriticalAbort) return stop(err.message);
      // A module that cannot be instantiated (a trap in top-level code, an unknown import) fails its file only.
      prepared.push({ kind: "broken", error: formatError(err, executeDeps.locate) });
    }
  }

  logger.styled("\nIgniting tests 🔥", "red");
  for (const [index, entry] of prepared.entries()) {
    const { file, display } = compiled[index]!;
    logger.styled(`\n${file.name}`, "blue");
    logger.styled("-".repeat(50));
    logger.addIndent();
    const fileOutcome: FileOutcome = { file, display, tests: [], failures: [], couldNotRun: null };
    outcome.files.push(fileOutcome);
    if (entry.kind === "broken") {
      logger.log("error", `${display} could not run: ${entry.error}`);
      fileOutcome.couldNotRun = entry.error;
      outcome.failed += 1;
      logger.clearIndent();
      continue;
    }
    const result = runPreparedFile(entry.prepared, entry.deps);
    fileOutcome.tests = result.tests;
    fileOutcome.failures = result.failures;
    outcome.passed += result.passed;
    outcome.failed += result.failed;
    if (result.empty) logger.log("warning", `No tests registered in ${display} (is the file empty?)`);
    if (result.critical !== null) {
      outcome.notRun = countTests(entry.prepared.tree) - result.tests.length;
      for (const later of prepared.slice(index + 1)) if (later.kind === "ready") outcome.notRun += countTests(later.prepared.tree);
      return stop(result.critical);
    }
    logger.clearIndent();
  }
  return outcome;
}

/** The source map asc wrote beside the wasm (`--sourceMap`), as a locator; none when it is not there or does not parse. */
function locatorFor(wasm: string): { locate?: SourceLocator } {
  const mapFile = `${wasm}.map`;
  if (!existsSync(mapFile)) return {};
  try {
    return { locate: sourceLocator(readFileSync(mapFile, "utf8")) };
  } catch {
    return {};
  }
}
