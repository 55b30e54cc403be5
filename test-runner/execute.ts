// Runs one compiled test file the way Matchstick runs a suite: instantiate (which runs `_start` and
// registers the tests), build the tree, then beforeAll hooks, each test between its beforeEach and
// afterEach hooks, afterAll hooks. A trap fails only its test; `shouldFail` inverts the outcome;
// a failing hook or `log.critical` stops the whole run (Matchstick panics).
import { instantiateSubgraph, type SubgraphInstance } from "../wasm-host/index.js";
import type { SubgraphSchema } from "../subgraph-schema/index.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CriticalAbort } from "./errors.js";
import type { Logger } from "./logger.js";
import { createMatchstickImports, critical } from "./matchstick/imports.js";
import { createMatchstickState, type MatchstickState } from "./matchstick/state.js";
import { buildGroup, newRegistrations, type GroupNode, type TestNode } from "./suite.js";
import { declarationLine, formatError } from "./failure.js";

/** Matchstick runs every module as apiVersion 0.0.6 (its mock data source). */
export const MATCHSTICK_API_VERSION = "0.0.6";

export interface TestResult {
  name: string;
  passed: boolean;
  ms: number;
  /** The logs collected while the test ran (assertion messages, the trap), Matchstick-formatted. */
  logs: string;
}

export interface FileResult {
  passed: number;
  failed: number;
  failures: TestResult[];
  /** Set when the run must stop (log.critical, a failing hook, a failing describe body). */
  critical: string | null;
  /** No tests registered at all. */
  empty: boolean;
}

export interface ExecuteDeps {
  module: WebAssembly.Module;
  schema: SubgraphSchema;
  templateKinds: ReadonlyMap<string, string>;
  root: string;
  logger: Logger;
  /** The test file's display path and text, to point a failure at its test's declaration. */
  source?: { path: string; text: string };
}

interface Live {
  instance: SubgraphInstance;
  state: MatchstickState;
}

async function instantiate(deps: ExecuteDeps): Promise<Live> {
  const { logger, root, schema } = deps;
  const state = createMatchstickState(deps.templateKinds);
  const instance = await instantiateSubgraph(deps.module, {
    apiVersion: MATCHSTICK_API_VERSION,
    schema,
    store: state.backend,
    ethereumCall: (call) => {
      if (!call.functionSignature) critical(state, logger, "Could not get function signature.");
      return state.mocks.call(call.contractAddress, call.functionName, call.functionSignature, call.functionParams);
    },
    ipfsCat: (hash) => {
      const path = state.ipfs.get(hash);
      if (path === undefined) critical(state, logger, `IPFS file \`${hash}\` not found`);
      try {
        return readFileSync(resolve(root, path));
      } catch (err) {
        return critical(state, logger, `Failed to read file \`${path}\` with error: ${(err as Error).message}`);
      }
    },
    dataSource: { address: "0x0000000000000000000000000000000000000000", network: "mainnet", context: null },
    log: (level, message) => logger.log(level, message),
    extraImports: createMatchstickImports({ state, logger, schema, root }),
  }).catch((err: unknown) => {
    checkCritical(state, err);
    throw err;
  });
  return { instance, state };
}

function tableFunction(instance: SubgraphInstance, funcIdx: number): () => void {
  const table = instance.context.exports["table"];
  if (!(table instanceof WebAssembly.Table)) {
    throw new CriticalAbort("WebAssembly.Table was not exported from the AssemblyScript sources. (Please compile with the `--exportTable` option.)");
  }
  const fn = table.get(funcIdx) as (() => void) | null;
  if (typeof fn !== "function") throw new CriticalAbort(`Could not get WebAssembly.Table entry with index '${funcIdx}'.`);
  return fn;
}

/** Throws CriticalAbort when the call hit log.critical (whatever the host wrapped it in). */
function checkCritical(state: MatchstickState, err?: unknown): void {
  if (state.critical !== null) throw new CriticalAbort(state.critical, { cause: err });
  if (err instanceof CriticalAbort) throw err;
}

export async function executeFile(deps: ExecuteDeps): Promise<FileResult> {
  const { logger } = deps;
  let main: Live;
  try {
    main = await instantiate(deps);
  } catch (err) {
    if (err instanceof CriticalAbort) return { passed: 0, failed: 0, failures: [], critical: err.message, empty: false };
    throw err;
  }
  const expand = async (funcIdx: number) => {
    const clone = await instantiate(deps);
    const before = [...clone.state.registrations];
    try {
      tableFunction(clone.instance, funcIdx)();
    } catch (err) {
      checkCritical(clone.state, err);
      throw new CriticalAbort(`Failed to execute function: ${formatError(err)}`, { cause: err });
    }
    checkCritical(clone.state);
    return newRegistrations(before, clone.state.registrations);
  };
  const result: FileResult = { passed: 0, failed: 0, failures: [], critical: null, empty: main.state.registrations.length === 0 };
  let root: GroupNode;
  try {
    root = await buildGroup("", main.state.registrations, expand);
  } catch (err) {
    if (!(err instanceof CriticalAbort)) throw err;
    return { ...result, critical: err.message };
  }

  const callHooks = (hooks: number[]): void => {
    for (const idx of hooks) {
      try {
        tableFunction(main.instance, idx)();
      } catch (err) {
        checkCritical(main.state, err);
        throw new CriticalAbort(`Unexpected error upon calling hook: ${formatError(err)}`, { cause: err });
      }
      checkCritical(main.state);
    }
  };

  const runTest = (test: TestNode): void => {
    callHooks(test.beforeEach);
    logger.accumulate();
    logger.addIndent();
    const started = performance.now();
    let passed: boolean;
    try {
      tableFunction(main.instance, test.funcIdx)();
      if (test.shouldFail) logger.log("error", "Expected test to fail but it passed successfully!");
      passed = !test.shouldFail;
    } catch (err) {
      if (main.state.critical !== null || err instanceof CriticalAbort) {
        logger.subIndent();
        logger.raw(logger.flush());
        checkCritical(main.state, err);
      }
      if (!test.shouldFail) {
        logger.addIndent();
        logger.log("debug", formatError(err));
        const line = deps.source === undefined ? null : declarationLine(deps.source.text, test.name);
        if (line !== null && deps.source !== undefined) logger.styled(`at ${deps.source.path}:${line} (test "${test.name}")`, "dim");
        logger.subIndent();
      }
      passed = test.shouldFail;
    }
    const ms = performance.now() - started;
    logger.subIndent();
    const logs = logger.flush();
    const line = `${test.name} - ${logger.paint(`${ms.toFixed(3)}ms`, "blue")}`;
    logger.log(passed ? "success" : "error", line);
    if (passed && logs.length > 0) logger.raw(logs);
    if (passed) result.passed++;
    else {
      result.failed++;
      result.failures.push({ name: test.name, passed, ms, logs });
    }
    callHooks(test.afterEach);
  };

  const runGroup = (group: GroupNode, top: boolean): void => {
    if (!top && group.name !== "") logger.styled(`${group.name}:`, "cyan", "bold", "italic");
    if (!top) logger.addIndent();
    callHooks(group.beforeAll);
    for (const child of group.children) {
      if (child.kind === "test") runTest(child);
      else runGroup(child, false);
    }
    callHooks(group.afterAll);
    if (!top) logger.subIndent();
  };

  try {
    runGroup(root, true);
  } catch (err) {
    if (!(err instanceof CriticalAbort)) throw err;
    result.critical = err.message;
  }
  return result;
}
