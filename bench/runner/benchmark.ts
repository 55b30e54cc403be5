// Figures for `npm run bench:runner` (printed, never asserted): cold compile time per test file,
// the warm run with nothing changed, and ApprovalHandler calls per second through the host and store.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryEntityStore, instantiateSubgraph, type EthereumEventInput } from "../runtime/index.js";
import { parseSubgraphSchema } from "../schema/index.js";
import { createCompiler } from "./compile.js";
import { resolveConfig } from "./config.js";
import { discoverTests } from "./discover.js";
import { runMatchstick } from "./run.js";

export interface CompileFigure {
  file: string;
  ms: number;
}

/** Compiles every test file into a scratch folder (the project's cache is untouched). */
export async function benchColdCompile(root: string): Promise<{ loadMs: number; files: CompileFigure[] }> {
  const config = resolveConfig(root);
  const out = mkdtempSync(join(tmpdir(), "runner-bench-"));
  try {
    const t0 = performance.now();
    const compiler = await createCompiler({ root: config.root, libsFolder: config.libsFolder });
    const loadMs = performance.now() - t0;
    const files: CompileFigure[] = [];
    for (const file of discoverTests(config.testsFolder)) {
      const started = performance.now();
      const result = await compiler.compile(file.path, join(out, `${file.name.replace(/\//g, "_")}.wasm`));
      if (!result.ok) throw new Error(`${file.name} did not compile:\n${result.diagnostics}`);
      files.push({ file: file.name, ms: performance.now() - started });
    }
    return { loadMs, files };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A run of the whole suite in-process; call it after a run that filled the cache. */
export async function benchWarmRun(root: string): Promise<{ ms: number; passed: number; failed: number; compiled: number }> {
  const started = performance.now();
  const summary = await runMatchstick({ root, patterns: [], coverage: false, recompile: false, color: false, write: () => {} });
  return { ms: performance.now() - started, passed: summary.passed, failed: summary.failed, compiled: summary.compiled.length };
}

const hex = (n: number, bytes: number): string => "0x" + n.toString(16).padStart(bytes * 2, "0");
/** Raw bytes, as an indexer holds them after decoding a log (no hex parsing on the hot path). */
const raw = (n: number, bytes: number): Uint8Array => Uint8Array.from(Buffer.from(hex(n, bytes).slice(2), "hex"));
const TOKEN = raw(0xe7f1725e, 20);

function approvalEvent(block: number, txIndex: number, logIndex: number, value: bigint): EthereumEventInput {
  const blockHash = raw(block, 32);
  return {
    address: TOKEN,
    logIndex,
    transactionLogIndex: logIndex,
    logType: null,
    block: {
      hash: blockHash,
      parentHash: raw(block - 1, 32),
      unclesHash: raw(0, 32),
      author: raw(0, 20),
      stateRoot: raw(0, 32),
      transactionsRoot: raw(0, 32),
      receiptsRoot: raw(0, 32),
      number: block,
      gasUsed: 0,
      gasLimit: 30_000_000,
      timestamp: 1_700_000_000 + block,
      difficulty: 0,
      totalDifficulty: 0,
      size: null,
      baseFeePerGas: 1,
    },
    transaction: {
      hash: raw(block * 1000 + txIndex, 32),
      index: txIndex,
      from: raw(1, 20),
      to: TOKEN,
      value: 0,
      gasLimit: 100_000,
      gasPrice: 1,
      input: new Uint8Array(0),
      nonce: 0,
    },
    parameters: [
      { name: "owner", value: { kind: "address", value: raw(1, 20) } },
      { name: "spender", value: { kind: "address", value: raw(logIndex + 2, 20) } },
      { name: "value", value: { kind: "uint", value } },
    ],
  };
}

/**
 * ApprovalHandler on the host with an in-memory store: `blocks` blocks of `perBlock` events, each
 * block's changes taken and applied to the store, as the indexer does. Events are built up front.
 */
export async function benchHandler(wasm: Uint8Array, schemaSdl: string, blocks: number, perBlock: number): Promise<{ calls: number; ms: number; perSecond: number; entities: number }> {
  const store = createMemoryEntityStore();
  const instance = await instantiateSubgraph(wasm, {
    apiVersion: "0.0.7",
    schema: parseSubgraphSchema(schemaSdl),
    store,
    dataSource: { address: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", network: "localhost", context: null },
  });
  const events: EthereumEventInput[][] = [];
  for (let b = 0; b < blocks; b++) {
    const list: EthereumEventInput[] = [];
    for (let i = 0; i < perBlock; i++) list.push(approvalEvent(b + 1, i >> 1, i, i % 3 === 0 ? 0n : (1n << 256n) - 1n));
    events.push(list);
  }
  const started = performance.now();
  events.forEach((list, b) => {
    instance.beginBlock({ number: b + 1, hash: hex(b + 1, 32) });
    for (const event of list) instance.runEventHandler("ApprovalHandler", event);
    store.apply(instance.takeChanges(), b + 1);
  });
  const ms = performance.now() - started;
  const calls = blocks * perBlock;
  return { calls, ms, perSecond: (calls / ms) * 1000, entities: store.count("ApprovalQuery") };
}

/** The first `.wasm` under a graph-cli build folder. */
export function findBuiltWasm(buildDir: string): Uint8Array {
  const walk = (dir: string): string | null => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (entry.name.endsWith(".wasm")) return full;
    }
    return null;
  };
  const file = walk(buildDir);
  if (file === null) throw new Error(`no wasm under ${buildDir}`);
  return readFileSync(file);
}
