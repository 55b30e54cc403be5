// Runs one compiled test file the way Matchstick runs a suite (src/main.rs, src/test_suite.rs), in two
// steps as Matchstick does: prepareFile instantiates (which runs `_start` and registers the tests) and
// builds the tree; runPreparedFile runs beforeAll hooks, each test between its beforeEach and afterEach
// hooks, afterAll hooks. A trap fails only its test; `shouldFail` inverts the outcome; a failing hook
// or `log.critical` stops the whole run (Matchstick panics, so the tests after it never run).
import { instantiateSubgraph, type SubgraphInstance } from "../wasm-host/index.js";
import type { SubgraphSchema } from "../subgraph-schema/index.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CriticalAbort } from "./errors.js";
import type { Logger } from "./logger.js";
import { createMatchstickImports, critical } from "./matchstick/imports.js";
import { createMatchstickState, type MatchstickState } from "./matchstick/state.js";
import type { MockSchema } from "./matchstick/mockSchema.js";
import { createMockStore } from "./matchstick/mockStore.js";
import { createGraphNodeStore } from "./matchstick/graphNodeStore.js";
import type { StoreSemantics } from "./matchstick/testStore.js";
import { buildGroup, newRegistrations, type GroupNode, type TestNode } from "./suite.js";
import { declarationLine, formatError, sourceLine } from "./failure.js";
import type { SourceLocator } from "../lib/wasmStack.js";

/** Matchstick's mock ENS lookup answers this name for every hash (src/subgraph_store.rs, find_name). */
export const MATCHSTICK_ENS_NAME = "default";

/** Matchstick runs every module as apiVersion 0.0.6 (its mock data source). */
export const MATCHSTICK_API_VERSION = "0.0.6";

export interface TestResult {
  name: string;
  /** The describe names around the test, outermost first. */
  groups: string[];
  passed: boolean;
  ms: number;
  /** The logs collected while the test ran (assertion messages, the trap), Matchstick-formatted. */
  logs: string;
}

export interface FileResult {
  passed: number;
  failed: number;
  failures: TestResult[];
  /** Every test that ran, in order. */
  tests: TestResult[];
  /** Set when the run must stop (log.critical, a failing hook, a failing describe body). */
  critical: string | null;
  /** No tests registered at all. */
  empty: boolean;
}

export interface ExecuteDeps {
  module: WebAssembly.Module;
  /** Which store the tests run against: Matchstick's mock store, or graph-node's (--strict). */
  semantics: StoreSemantics;
  /** graph-node's view of the schema; null when graph-node would reject it (matchstick semantics only). */
  schema: SubgraphSchema | null;
  /** Matchstick's view of the schema (required fields, derived fields). */
  mockSchema: MockSchema;
  templateKinds: ReadonlyMap<string, string>;
  root: string;
  logger: Logger;
  /** The test file's display path and text, to point a failure at its test's declaration. */
  source?: { path: string; text: string };
  /** The compile's source map, as a locator of wasm offsets (absent when the wasm has none). */
  locate?: SourceLocator;
}

interface Live {
  instance: SubgraphInstance;
  state: MatchstickState;
}

/** The host only reads the schema through its own store, which the runner replaces; a stand-in serves. */
const NO_SCHEMA: SubgraphSchema = { sdl: "", entities: new Map(), interfaces: new Map(), enums: new Map(), fulltexts: [], aggregations: [] };

async function instantiate(deps: ExecuteDeps): Promise<Live> {
  const { logger, root, mockSchema, semantics } = deps;
  const schema = deps.schema;
  const state = createMatchstickState(deps.templateKinds, (st) => {
    if (semantics === "matchstick") return createMockStore({ schema: mockSchema, critical: (message) => critical(st, logger, message) });
    if (schema === null) throw new Error("graph-node semantics need a schema graph-node accepts");
    return createGraphNodeStore(schema);
  });
  const instance = await instantiateSubgraph(deps.module, {
    apiVersion: MATCHSTICK_API_VERSION,
    schema: schema ?? NO_SCHEMA,
    store: state.store.backend,
    entityCache: state.store.hostStore,
    // graph-node with no ENS data fails the lookup ("Missing ENS data"); Matchstick's mock answers a name.
    ...(semantics === "matchstick" ? { ensNameByHash: () => MATCHSTICK_ENS_NAME } : {}),
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
    extraImports: createMatchstickImports({ state, logger, mockSchema, root }),
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

/** A file instantiated and its tests registered, ready to run. */
export interface PreparedFile {
  main: Live;
  tree: GroupNode;
  empty: boolean;
}

/** Instantiates the file and builds its test tree; a CriticalAbort means the whole run must stop. */
export async function prepareFile(deps: ExecuteDeps): Promise<PreparedFile> {
  const main = await instantiate(deps);
  const expand = async (funcIdx: number) => {
    const clone = await instantiate(deps);
    const before = [...clone.state.registrations];
    try {
      tableFunction(clone.instance, funcIdx)();
    } catch (err) {
      checkCritical(clone.state, err);
      throw new CriticalAbort(`Failed to execute function: ${formatError(err, deps.locate)}`, { cause: err });
    }
    checkCritical(clone.state);
    return newRegistrations(before, clone.state.registrations);
  };
  const tree = await buildGroup("", main.state.registrations, expand);
  return { main, tree, empty: main.state.registrations.length === 0 };
}

export function runPreparedFile(prepared: PreparedFile, deps: ExecuteDeps): FileResult {
  const { logger } = deps;
  const { main } = prepared;
  const result: FileResult = { passed: 0, failed: 0, failures: [], tests: [], critical: null, empty: prepared.empty };

  const callHooks = (hooks: number[]): void => {
    for (const idx of hooks) {
      try {
        tableFunction(main.instance, idx)();
      } catch (err) {
        checkCritical(main.state, err);
        throw new CriticalAbort(`Unexpected error upon calling hook: ${formatError(err, deps.locate)}`, { cause: err });
      }
      checkCritical(main.state);
    }
  };

  const runTest = (test: TestNode, groups: string[]): void => {
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
        logger.log("debug", formatError(err, deps.locate));
        // Where the trap (or throw) happened in the project's own code, by the compile's source map.
        const at = deps.locate ? sourceLine(err, deps.locate) : null;
        if (at !== null) logger.styled(`trapped at ${at}`, "dim");
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
    const outcome: TestResult = { name: test.name, groups, passed, ms, logs };
    result.tests.push(outcome);
    if (passed) result.passed++;
    else {
      result.failed++;
      result.failures.push(outcome);
    }
    callHooks(test.afterEach);
  };

  const runGroup = (group: GroupNode, top: boolean, groups: string[]): void => {
    if (!top && group.name !== "") logger.styled(`${group.name}:`, "cyan", "bold", "italic");
    if (!top) logger.addIndent();
    callHooks(group.beforeAll);
    const inner = top ? groups : [...groups, group.name];
    for (const child of group.children) {
      if (child.kind === "test") runTest(child, inner);
      else runGroup(child, false, inner);
    }
    callHooks(group.afterAll);
    if (!top) logger.subIndent();
  };

  try {
    runGroup(prepared.tree, true, []);
  } catch (err) {
    if (!(err instanceof CriticalAbort)) throw err;
    result.critical = err.message;
  }
  return result;
}
