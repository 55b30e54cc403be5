// A mapping that never returns (local-node/e2e/_test/runaway, built by graph-cli: an approval of 7 spins
// forever): the run fails deterministically at the handler timeout, with graph-node's text, and
// interrupt() ends a stuck thread at once; other workers keep running meanwhile. One that allocates
// without end (_test/hog: an approval of 8) fails at the memory cap, naming it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import type { EthereumEventInput } from "../../wasm-host/types.js";
import { DEFAULT_MAPPING_LIMITS, createHostThreadPool, createHostWorker, mappingLimitsFromEnv, type HostServices, type HostThreadPool, type HostWorker } from "./hostWorkerClient.js";
import type { BlockJob } from "./hostProtocol.js";

// A graph-cli build: generous limits for a loaded 2-core machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const TOKEN = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const fixture = join(fileURLToPath(new URL(".", import.meta.url)), "..", "e2e", "_test", "runaway");
const hogFixture = join(fileURLToPath(new URL(".", import.meta.url)), "..", "e2e", "_test", "hog");
const hex = (n: number, bytes: number) => `0x${n.toString(16).padStart(bytes * 2, "0")}`;
let wasmModule: WebAssembly.Module;
let schemaSdl = "";
let pool: HostThreadPool;
const services: HostServices = {
  getEntity: async () => null,
  entityIds: async () => [],
  getDerived: async () => [],
  ethereumCall: async () => null,
  getBalance: async () => 0n,
  hasCode: async () => false,
  triggersIn: async () => [],
};

function event(tx: number, value: bigint, block: number): EthereumEventInput {
  return {
    address: TOKEN,
    logIndex: 0n,
    transactionLogIndex: 0n,
    logType: null,
    block: { hash: hex(block, 32), parentHash: hex(block - 1, 32), unclesHash: hex(0, 32), author: hex(0, 20), stateRoot: hex(0, 32), transactionsRoot: hex(0, 32), receiptsRoot: hex(0, 32), number: BigInt(block), gasUsed: 0n, gasLimit: 30_000_000n, timestamp: 1_700_000_000n + BigInt(block), difficulty: 0n, totalDifficulty: 0n, size: 0n, baseFeePerGas: 1n },
    transaction: { hash: hex(tx, 32), index: 0n, from: hex(1, 20), to: TOKEN, value: 0n, gasLimit: 100_000n, gasPrice: 1n, input: "0x", nonce: 0n },
    parameters: [
      { name: "owner", value: { kind: "address", value: hex(0xaa, 20) } },
      { name: "spender", value: { kind: "address", value: hex(0xbb, 20) } },
      { name: "value", value: { kind: "uint", value } },
    ],
  };
}

function job(block: number, values: bigint[]): BlockJob {
  return {
    ptr: { number: block, hash: hex(block, 32), timestamp: 1_700_000_000 + block, parentHash: hex(block - 1, 32) },
    triggers: values.map((v, i) => ({ kind: "event" as const, dataSource: 0, handler: "ApprovalHandler", event: event(block * 100 + i, v, block) })),
  };
}

const startWorker = (): Promise<HostWorker> =>
  createHostWorker({ thread: pool.take(), schemaSdl, dataSources: [{ name: "ApprovalToken", wasmModule, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }], services, log: () => {} });

beforeAll(async () => {
  const built = await buildSubgraph({ address: TOKEN, startBlock: 1, projectDir: fixture });
  wasmModule = await WebAssembly.compile(await readFile(join(built.buildDir, "ApprovalToken", "ApprovalToken.wasm")));
  schemaSdl = await readFile(join(fixture, "schema.graphql"), "utf8");
  pool = createHostThreadPool({ ...DEFAULT_MAPPING_LIMITS, handlerTimeoutMs: 1500 });
});
afterAll(async () => {
  await pool?.close();
});

describe("a handler that never returns", () => {
  it("fails its run deterministically at the handler timeout, while another worker keeps running", async () => {
    const stuck = await startWorker();
    const healthy = await startWorker();
    try {
      const started = Date.now();
      const pending = stuck.run([job(5, [1n, 7n]), job(6, [2n])]);
      // The other deployment's worker answers runs throughout.
      for (let b = 10; Date.now() - started < 1000; b++) expect((await healthy.run([job(b, [3n])])).failure).toBeNull();
      const { results, failure } = await pending;
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(1500);
      // The bound: the timeout, plus two guard ticks, plus slack for a loaded machine.
      expect(took).toBeLessThan(1500 + 500 + 2000);
      expect(results).toEqual([]);
      expect(failure).toMatchObject({ deterministic: true, handler: "ApprovalHandler", block: { number: 5 } });
      expect(failure?.message).toBe(
        "Handler 'ApprovalHandler' hit the timeout of '1.5' seconds while running blocks 5-6 (GRAPH_MAPPING_HANDLER_TIMEOUT; it computed that long without returning or calling the host)",
      );
      await expect(stuck.run([job(7, [1n])])).rejects.toThrow(/a handler ran past the timeout/);
      expect((await healthy.run([job(100_000, [4n])])).failure).toBeNull();
    } finally {
      await stuck.terminate();
      await healthy.terminate();
    }
  });

  it("is ended at once by interrupt(): the run rejects, reset and terminate are no-ops afterwards", async () => {
    const stuck = await startWorker();
    const pending = stuck.run([job(8, [7n])]);
    const outcome = pending.then(() => "resolved", (error: unknown) => error);
    await new Promise((r) => setTimeout(r, 300));
    expect(stuck.busy).toBe(true);
    const started = Date.now();
    await stuck.interrupt("host worker ended: the deployment is stopping");
    expect(await outcome).toMatchObject({ message: "host worker ended: the deployment is stopping" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(stuck.busy).toBe(false);
    await expect(stuck.reset(1)).resolves.toBeUndefined();
    await expect(stuck.terminate()).resolves.toBeUndefined();
  });

  it("reads GRAPH_MAPPING_HANDLER_TIMEOUT in seconds, as graph-node does, and LOCAL_NODE_MAPPING_MAX_MEMORY_MB", () => {
    expect(mappingLimitsFromEnv({ GRAPH_MAPPING_HANDLER_TIMEOUT: "5" })).toEqual({ handlerTimeoutMs: 5000 });
    expect(mappingLimitsFromEnv({})).toEqual({});
    expect(() => mappingLimitsFromEnv({ GRAPH_MAPPING_HANDLER_TIMEOUT: "soon" })).toThrow(/GRAPH_MAPPING_HANDLER_TIMEOUT must be a number of seconds/);
    expect(mappingLimitsFromEnv({ LOCAL_NODE_MAPPING_MAX_MEMORY_MB: "512" })).toEqual({ maxMemoryMb: 512 });
    for (const bad of ["0", "4097", "1.5", "lots"]) {
      expect(() => mappingLimitsFromEnv({ LOCAL_NODE_MAPPING_MAX_MEMORY_MB: bad }), bad).toThrow(/LOCAL_NODE_MAPPING_MAX_MEMORY_MB must be a whole number of MB from 1 to 4096/);
    }
  });
});

describe("a handler that allocates without end", () => {
  let hogBytes: Uint8Array;
  let hogPool: HostThreadPool;

  beforeAll(async () => {
    const built = await buildSubgraph({ address: TOKEN, startBlock: 1, projectDir: hogFixture });
    hogBytes = await readFile(join(built.buildDir, "ApprovalToken", "ApprovalToken.wasm"));
    hogPool = createHostThreadPool({ ...DEFAULT_MAPPING_LIMITS, handlerTimeoutMs: 30_000, maxMemoryMb: 64 });
  });
  afterAll(async () => {
    await hogPool?.close();
  });

  it("fails its run deterministically at the memory cap, naming it, while another worker keeps running", async () => {
    const start = async (): Promise<HostWorker> => {
      const hogModule = await WebAssembly.compile(hogBytes as Uint8Array<ArrayBuffer>);
      return createHostWorker({ thread: hogPool.take(), schemaSdl, dataSources: [{ name: "ApprovalToken", wasmModule: hogModule, wasmBytes: hogBytes, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }], services, log: () => {} });
    };
    const hog = await start();
    const healthy = await start();
    try {
      expect((await hog.run([job(3, [1n, 2n])])).failure).toBeNull();
      const started = Date.now();
      const { results, failure } = await hog.run([job(5, [1n, 8n]), job(6, [2n])]);
      // 64 MB fill in well under the handler timeout; uncapped, the module would grow to about 2 GB.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(results).toEqual([]);
      expect(failure).toMatchObject({ deterministic: true, handler: "ApprovalHandler", block: { number: 5 } });
      expect(failure?.message).toMatch(/^out of memory: the mapping's memory reached (3[2-9]|[4-5]\d|6[0-4]) MB of its 64 MB limit \(LOCAL_NODE_MAPPING_MAX_MEMORY_MB\); transaction [0-9a-f]{64}: wasm trap: unreachable$/);
      expect((await healthy.run([job(7, [3n])])).failure).toBeNull();
    } finally {
      await hog.terminate();
      await healthy.terminate();
    }
  });
});
