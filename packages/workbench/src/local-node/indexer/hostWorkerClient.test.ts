// The host worker with the real ApprovalHandler (built by graph-cli): events in, entity changes out;
// store reads answered from the main thread in bulk; an immutable rewrite is a deterministic failure.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import type { EntityData } from "../../wasm-host/values/storeValue.js";
import type { EthereumEventInput } from "../../wasm-host/types.js";
import { createHostThreadPool, createHostWorker, startHostThread, type HostServices, type HostThread, type HostWorker } from "./hostWorkerClient.js";
import type { BlockJob } from "./hostProtocol.js";

// graph-cli builds and real chains: generous limits for a loaded 2-core CI machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const TOKEN = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
let worker: HostWorker;
let wasmModule: WebAssembly.Module;
let schemaSdl = "";
const stored = new Map<string, EntityData>();
const calls = { get: 0, ids: 0 };
let services_: HostServices;

const hex = (n: number, bytes: number) => `0x${n.toString(16).padStart(bytes * 2, "0")}`;
const storedId = `${hex(3, 32)}-0`;

function event(tx: number, logIndex: number, value: bigint, block: number): EthereumEventInput {
  return {
    address: TOKEN,
    logIndex: BigInt(logIndex),
    transactionLogIndex: BigInt(logIndex),
    logType: null,
    block: { hash: hex(block, 32), parentHash: hex(block - 1, 32), unclesHash: hex(0, 32), author: hex(0, 20), stateRoot: hex(0, 32), transactionsRoot: hex(0, 32), receiptsRoot: hex(0, 32), number: BigInt(block), gasUsed: 0n, gasLimit: 30_000_000n, timestamp: 1_700_000_000n + BigInt(block), difficulty: 0n, totalDifficulty: 0n, size: 0n, baseFeePerGas: 1n },
    transaction: { hash: hex(tx, 32), index: 0n, from: hex(1, 20), to: TOKEN, value: 0n, gasLimit: 100_000n, gasPrice: 1n, input: "0x", nonce: 0n },
    parameters: [
      { name: "owner", value: { kind: "address", value: hex(0xaa, 20) } },
      { name: "spender", value: { kind: "address", value: hex(0xbb + tx, 20) } },
      { name: "value", value: { kind: "uint", value } },
    ],
  };
}

function job(block: number, events: EthereumEventInput[]): BlockJob {
  return { ptr: { number: block, hash: hex(block, 32), timestamp: 1_700_000_000 + block, parentHash: hex(block - 1, 32) }, triggers: events.map((e) => ({ kind: "event" as const, dataSource: 0, handler: "ApprovalHandler", event: e })) };
}

beforeAll(async () => {
  // An ApprovalQuery committed before the worker started (in an earlier block).
  stored.set(`ApprovalQuery:${storedId}`, new Map([["id", { kind: "String", value: storedId }]]));
  const built = await buildSubgraph({ address: TOKEN, startBlock: 1 });
  const wasm = await readFile(join(built.buildDir, "ApprovalToken", "ApprovalToken.wasm"));
  const services: HostServices = {
    async getEntity(type, id) {
      calls.get++;
      return stored.get(`${type}:${id}`) ?? null;
    },
    async entityIds(type) {
      calls.ids++;
      return [...stored.keys()].filter((k) => k.startsWith(`${type}:`)).map((k) => k.slice(type.length + 1));
    },
    getDerived: async () => [],
    ethereumCall: async () => null,
    getBalance: async () => 0n,
    hasCode: async () => false,
    triggersIn: async () => [],
  };
  wasmModule = await WebAssembly.compile(wasm);
  schemaSdl = await readFile(join(projectRoot, "schema.graphql"), "utf8");
  worker = await createHostWorker({
    schemaSdl,
    dataSources: [{ name: "ApprovalToken", wasmModule, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }],
    services,
    log: () => {},
  });
  services_ = services;
});
afterAll(async () => {
  await worker?.terminate();
});

describe("host worker", () => {
  it("runs ApprovalHandler per event and returns each block's changes without a store read per save", async () => {
    const max = 2n ** 256n - 1n;
    const { results, failure } = await worker.run([job(10, [event(1, 0, 0n, 10), event(1, 1, max, 10)]), job(11, [event(2, 5, 42n, 11)])]);
    expect(failure).toBeNull();
    expect(results.map((r) => r.ptr.number)).toEqual([10, 11]);
    const first = results[0]!.changes;
    expect(first.map((c) => c.id)).toEqual([`${hex(1, 32)}-0`, `${hex(1, 32)}-1`]);
    const c = first[1]!;
    expect(c.op).toBe("set");
    if (c.op !== "set") return;
    expect(c.entityType).toBe("ApprovalQuery");
    expect(c.data.get("value")).toEqual({ kind: "BigInt", value: max });
    expect(c.data.get("owner")).toEqual({ kind: "Bytes", value: Uint8Array.from(Buffer.from("aa".padStart(40, "0"), "hex")) });
    expect(results[1]!.changes[0]!.id).toBe(`${hex(2, 32)}-5`);
    // Three saves, three immutability checks: answered from the ids listed once, no single reads.
    expect(calls).toEqual({ get: 0, ids: 1 });
  });

  it("fails deterministically when an immutable entity from an earlier block is written again", async () => {
    const { results, failure } = await worker.run([job(12, [event(4, 0, 1n, 12)]), job(13, [event(3, 0, 1n, 13)])]);
    expect(results.map((r) => r.ptr.number)).toEqual([12]);
    expect(failure?.deterministic).toBe(true);
    expect(failure?.block.number).toBe(13);
    expect(failure?.handler).toBe("ApprovalHandler");
    expect(failure?.message).toMatch(/immutable/i);
    // The stored id was read for real (once); block 12's new id was not.
    expect(calls).toEqual({ get: 1, ids: 1 });
  });

  it("refuses a run it cannot pack without counting it in flight, and runs the next", async () => {
    const broken = { ptr: job(30, []).ptr, triggers: [{ kind: "event" as const, dataSource: 0, handler: "ApprovalHandler", event: undefined as unknown as EthereumEventInput }] };
    await expect(worker.run([broken])).rejects.toThrow(TypeError);
    // Not taken for a run in flight: the handler timeout's guard would otherwise fail it later.
    expect(worker.busy).toBe(false);
    const { results, failure } = await worker.run([job(31, [event(31, 0, 1n, 31)])]);
    expect(failure).toBeNull();
    expect(results[0]!.changes.map((c) => c.id)).toEqual([`${hex(31, 32)}-0`]);
  });

  it("replaces a grown mapping instance between blocks without changing results", async () => {
    // A tiny limit: every block runs on a fresh instance.
    const small = await createHostWorker({ schemaSdl, dataSources: [{ name: "ApprovalToken", wasmModule, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }], services: services_, log: () => {}, memoryLimitBytes: 1 });
    try {
      const jobs = [20, 21, 22].map((b) => job(b, [event(100 + b, 0, BigInt(b), b), event(100 + b, 1, 7n, b)]));
      // The same id twice in one block is allowed for an immutable entity (last write wins).
      jobs.push(job(23, [event(200, 0, 1n, 23), event(200, 0, 2n, 23)]));
      const { results, failure } = await small.run(jobs);
      expect(failure).toBeNull();
      expect(results.map((r) => r.changes.length)).toEqual([2, 2, 2, 1]);
      const last = results[3]!.changes[0]!;
      expect(last.op === "set" && last.data.get("value")).toEqual({ kind: "BigInt", value: 2n });
      // Entities of earlier blocks are still known to the new instances: rewriting one fails.
      const again = await small.run([job(24, [event(120, 0, 5n, 24)])]);
      expect(again.failure?.message).toMatch(/immutable/i);
    } finally {
      await small.terminate();
    }
  });

  it("keeps no immutable entity in its cache once committed: a later read goes to the store", async () => {
    const fresh = await createHostWorker({ schemaSdl, dataSources: [{ name: "ApprovalToken", wasmModule, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }], services: services_, log: () => {} });
    const written = `${hex(140, 32)}-0`;
    try {
      // Block 40's write, then UNCONFIRMED_RUNS + 1 runs: by the last one, block 40's run counts as committed.
      for (const b of [40, 41, 42, 43, 44]) expect((await fresh.run([job(b, [event(100 + b, 0, 1n, b)])])).failure).toBeNull();
      // Committed, as the job runner has done by then.
      stored.set(`ApprovalQuery:${written}`, new Map([["id", { kind: "String", value: written }]]));
      const before = calls.get;
      const again = await fresh.run([job(45, [event(140, 0, 2n, 45)])]);
      // Still an immutable rewrite, found by reading the store: the cache no longer held it.
      expect(again.failure?.message).toMatch(/immutable/i);
      expect(calls.get - before).toBe(1);
    } finally {
      stored.delete(`ApprovalQuery:${written}`);
      await fresh.terminate();
    }
  });

  it("runs a deployment on a thread the pool loaded beforehand, and loads the next one once asked and quiet", async () => {
    const pool = createHostThreadPool(undefined, { keepSpare: true, quietMs: 100 });
    try {
      await pool.warm();
      const thread = pool.take();
      // Loaded before it was taken: the host's modules are in, only the mapping is left to instantiate.
      await expect(thread.loaded).resolves.toBeUndefined();
      expect(pool.hasSpare()).toBe(false);
      const warm = await createHostWorker({ thread, schemaSdl, dataSources: [{ name: "ApprovalToken", wasmModule, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }], services: services_, log: () => {} });
      try {
        // Asked for while a run is under way: nothing loads until the run has settled and the quiet time passed.
        const run = warm.run([job(30, [event(300, 0, 9n, 30)])]);
        pool.replenish();
        pool.running(run);
        const { results, failure } = await run;
        expect(failure).toBeNull();
        expect(results[0]!.changes.map((c) => c.id)).toEqual([`${hex(300, 32)}-0`]);
        expect(pool.hasSpare()).toBe(false);
        await new Promise((r) => setTimeout(r, 300));
        expect(pool.hasSpare()).toBe(true);
      } finally {
        await warm.terminate();
      }
      const next = pool.take();
      expect(next.worker.threadId).not.toBe(thread.worker.threadId);
      await expect(next.loaded).resolves.toBeUndefined();
      await next.worker.terminate();
      // Not asked for: no spare.
      await new Promise((r) => setTimeout(r, 300));
      expect(pool.hasSpare()).toBe(false);
    } finally {
      await pool.close();
    }
  });

  it("loads only the first thread ahead unless it keeps a spare (the dev loop's pool does)", async () => {
    const started: HostThread[] = [];
    const pool = createHostThreadPool(undefined, { quietMs: 50, startThread: (limits) => {
      const thread = startHostThread(limits);
      started.push(thread);
      return thread;
    } });
    try {
      const first = pool.take();
      await first.loaded;
      // What a deployment does once it has synced: a pool that keeps no spare loads nothing.
      pool.replenish();
      await new Promise((r) => setTimeout(r, 300));
      expect(pool.hasSpare()).toBe(false);
      expect(started).toHaveLength(1);
      await first.worker.terminate();
    } finally {
      await pool.close();
    }
  });

  it("ends a spare that is still loading only once it has loaded (V8 aborts the process otherwise)", async () => {
    const started: HostThread[] = [];
    const pool = createHostThreadPool(undefined, { startThread: (limits) => {
      const thread = startHostThread(limits);
      started.push(thread);
      return thread;
    } });
    // Closed at once, as a node stopped right after it started: the spare is in the middle of loading.
    await pool.close();
    expect(started).toHaveLength(1);
    await expect(started[0]!.loaded).resolves.toBeUndefined();
  });

  it("reports a pre-started thread that died before it was given a deployment", async () => {
    const pool = createHostThreadPool();
    try {
      const thread = pool.take();
      // Ended once loaded: ended in the middle of loading, a thread can take the process down (above).
      await thread.loaded;
      await thread.worker.terminate();
      const error = await createHostWorker({ thread, schemaSdl, dataSources: [{ name: "ApprovalToken", wasmModule, apiVersion: "0.0.7", address: TOKEN, network: "localhost" }], services: services_, log: () => {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/host worker exited/);
    } finally {
      await pool.close();
    }
  });
});
