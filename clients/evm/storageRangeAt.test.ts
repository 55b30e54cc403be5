import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "subgraph-workbench/lib/freePort";
import { startHardhatNode, type HardhatNode } from "../../hardhat/chain/hardhatNode.js";
import { createJsonRpcClient, type JsonRpcClient } from "subgraph-workbench/json-rpc";
import { startRpcProxy, INJECTED_FAILURE, type RpcProxy, type RpcProxyOptions } from "./_test/rpcProxy.js";
import { sequentialStorageRange, type OracleParameters } from "./_test/sequentialOracle.js";
import { deploySparseStorage, type Deployed } from "./_test/sparseStorage.js";
import { mappingSlot } from "./mappingSlot.js";
import { storageRangeAt } from "./storageRangeAt.js";
import { storageRangeAtResponse } from "./storageRangeAtResponse.js";
import { storageRangePages } from "./storageRangePages.js";

let node: HardhatNode;
let chain: Deployed;
let client: JsonRpcClient;
/** State after setup: slots 0, 2, 6, 7, 30 and 31-90 (every 4th zero) set, one mapping entry. */
let blockA: string;
/** Later state: slot 0 changed, slot 1 written. */
let blockB: string;
let positionSlot: bigint;

const word = (n: bigint | number) => `0x${BigInt(n).toString(16).padStart(64, "0")}`;

function collectingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (m: string) => void warnings.push(m) } };
}

async function withProxy<T>(options: Omit<RpcProxyOptions, "target">, run: (proxy: RpcProxy, client: JsonRpcClient) => Promise<T>): Promise<T> {
  const proxy = await startRpcProxy({ target: node.url, ...options });
  try {
    return await run(proxy, createJsonRpcClient({ url: proxy.url }));
  } finally {
    await proxy.close();
  }
}

/** Runs both implementations through `c` and returns their wrapped answers and warnings. */
async function both(c: JsonRpcClient, params: Omit<OracleParameters, "logger">) {
  const mine = collectingLogger();
  const oracle = collectingLogger();
  const ours = await storageRangeAtResponse(c, { ...params, logger: mine.logger });
  const reference = await sequentialStorageRange(c, { ...params, logger: oracle.logger });
  return { ours, reference, ourWarnings: mine.warnings, referenceWarnings: oracle.warnings };
}

async function expectSameAsOracle(c: JsonRpcClient, params: Omit<OracleParameters, "logger">) {
  const r = await both(c, params);
  expect(JSON.stringify(r.ours)).toBe(JSON.stringify(r.reference));
  expect(r.ourWarnings).toEqual(r.referenceWarnings);
  return r;
}

beforeAll(async () => {
  node = await startHardhatNode();
  client = createJsonRpcClient({ url: node.url });
  chain = await deploySparseStorage(node.url);
  await chain.send(chain.contract.setPosition(1n, 5n, 77n));
  await chain.send(chain.contract.setBalance(chain.deployer, 1234n));
  blockA = await chain.send(chain.contract.fill(31n, 60n, 4n));
  await chain.send(chain.contract.store(0n, 999n));
  blockB = await chain.send(chain.contract.store(1n, 5n));
  positionSlot = BigInt(mappingSlot(1n, 8));
});

afterAll(async () => {
  chain?.provider.destroy();
  await node?.stop();
});

describe("storageRangeAt on a sparse contract", () => {
  it("reads upward from the start key, omits zero slots and keys by unpadded hex", async () => {
    const result = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: "0x0", maxResults: 5 });
    expect(Object.keys(result.storage)).toEqual(["0x0", "0x2", "0x6", "0x7", "0x1e"]);
    expect(result.storage["0x0"]).toEqual({ key: null, value: word(1) });
    expect(result.storage["0x2"]?.value).toBe(word(0xbeef));
    expect(result.storage["0x6"]?.value).toBe(word(BigInt(chain.deployer)));
    expect(result.storage["0x7"]?.value).toBe(word((9n << 128n) | 7n));
    expect(result.storage["0x1e"]?.value).toBe(word(42));
    expect(result.nextKey).toBe("0x1f");
  });

  it("defaults max_results to 10", async () => {
    const result = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: "0x1f" });
    expect(Object.keys(result.storage)).toHaveLength(10);
    expect(result.nextKey).toBe("0x2c");
  });

  it("sets nextKey only when the page is full and stops after 10 x max_results attempts", async () => {
    // Slots 0-99 hold 50 non-zero values; 60 wanted means 600 attempts, page not full.
    const notFull = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: 0n, maxResults: 60 });
    expect(Object.keys(notFull.storage)).toHaveLength(50);
    expect(notFull.nextKey).toBeNull();
    const gap = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: "0x8", maxResults: 1 });
    // 10 attempts (8..17) find nothing.
    expect(gap).toEqual({ storage: {}, nextKey: null });
  });

  it.each([
    ["0x0", 1],
    ["0x0", 3],
    ["0x0", 10],
    ["0x1", 2],
    ["0x8", 3],
    ["0x1f", 10],
    ["0x22", 7],
    ["0x0", 100],
    ["0000000000000000000000000000000000000000000000000000000000000002", 4],
  ])("equals the sequential oracle from %s with max_results %i", async (startKey, maxResults) => {
    await expectSameAsOracle(client, { blockHash: blockA, txIndex: 0, address: chain.address, startKey, maxResults });
  });

  it("reads every slot at the given block, not at the latest", async () => {
    const atA = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: "0x0", maxResults: 2 });
    const atB = await storageRangeAt(client, { blockHash: blockB, address: chain.address, startKey: "0x0", maxResults: 2 });
    expect(atA.storage).toEqual({ "0x0": { key: null, value: word(1) }, "0x2": { key: null, value: word(0xbeef) } });
    expect(atB.storage).toEqual({ "0x0": { key: null, value: word(999) }, "0x1": { key: null, value: word(5) } });
    await expectSameAsOracle(client, { blockHash: blockB, address: chain.address, startKey: "0x0", maxResults: 4 });
  });

  it("ignores txIndex", async () => {
    const a = await storageRangeAt(client, { blockHash: blockA, txIndex: 0, address: chain.address, startKey: "0x0", maxResults: 4 });
    const b = await storageRangeAt(client, { blockHash: blockA, txIndex: 7, address: chain.address, startKey: "0x0", maxResults: 4 });
    expect(b).toEqual(a);
  });

  it("walks a mapping entry found with the mapping-slot helper", async () => {
    const result = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: mappingSlot(1n, 8), maxResults: 2 });
    // amount at +0, flags (zero) at +1, owner at +2.
    expect(result.storage).toEqual({
      [`0x${positionSlot.toString(16)}`]: { key: null, value: word(5) },
      [`0x${(positionSlot + 2n).toString(16)}`]: { key: null, value: word(77) },
    });
    expect(result.nextKey).toBe(`0x${(positionSlot + 3n).toString(16)}`);
    await expectSameAsOracle(client, { blockHash: blockA, address: chain.address, startKey: mappingSlot(1n, 8), maxResults: 3 });
    const balance = await client.request<string>("eth_getStorageAt", [chain.address, mappingSlot(chain.deployer, 9), { blockHash: blockA }]);
    expect(balance).toBe(word(1234));
  });

  it("pages through the whole storage by following nextKey", async () => {
    const pages = [];
    for await (const page of storageRangePages(client, { blockHash: blockA, address: chain.address, maxResults: 7, logger: console })) pages.push(page);
    expect(pages.length).toBe(8);
    expect(pages.slice(0, -1).every((p) => p.nextKey !== null)).toBe(true);
    expect(pages.at(-1)?.nextKey).toBeNull();
    const merged = Object.assign({}, ...pages.map((p) => p.storage)) as Record<string, unknown>;
    const whole = await storageRangeAt(client, { blockHash: blockA, address: chain.address, startKey: "0x0", maxResults: 60 });
    expect(merged).toEqual(whole.storage);
    // Each page equals the oracle's page from the same key.
    let startKey = "0x0";
    for (const page of pages) {
      const { reference } = await both(client, { blockHash: blockA, address: chain.address, startKey, maxResults: 7 });
      expect(JSON.stringify({ jsonrpc: "2.0", id: 1, result: page })).toBe(JSON.stringify(reference));
      startKey = page.nextKey ?? "";
    }
  });
});

describe("storageRangeAtResponse errors", () => {
  it("wraps results as JSON-RPC", async () => {
    const response = await storageRangeAtResponse(client, { blockHash: blockA, address: chain.address, startKey: "0x0", maxResults: 1 });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { storage: { "0x0": { key: null, value: word(1) } }, nextKey: "0x1" } });
  });

  it("reports an unknown block hash as -32000 Failed to get block", async () => {
    const unknown = `0x${"ab".repeat(32)}`;
    const { ours } = await expectSameAsOracle(client, { blockHash: unknown, address: chain.address, startKey: "0x0" });
    expect(ours).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: `Failed to get block: Block with id: '${unknown}' not found.` } });
    const malformed = await expectSameAsOracle(client, { blockHash: "0x1234", address: chain.address, startKey: "0x0" });
    expect(malformed.ours).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/^Failed to get block: ./) } });
  });

  it("reports a dead node as Failed to connect to Ethereum node", async () => {
    const dead = createJsonRpcClient({ url: `http://127.0.0.1:${await freePort()}/0123456789abcdef0123456789abcdef` });
    const { ours } = await expectSameAsOracle(dead, { blockHash: blockA, address: chain.address, startKey: "0x0" });
    expect(ours).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "Failed to connect to Ethereum node" } });
  });

  it("rejects bad max_results and start keys as -32000", async () => {
    const zero = await storageRangeAtResponse(client, { blockHash: blockA, address: chain.address, startKey: "0x0", maxResults: 0 });
    expect(zero).toMatchObject({ error: { code: -32000, message: "max_results must be a positive integer, got 0" } });
    const bad = await storageRangeAtResponse(client, { blockHash: blockA, address: chain.address, startKey: "0xzz" });
    expect(bad).toMatchObject({ error: { code: -32000, message: "invalid literal for int() with base 16: '0xzz'" } });
  });
});

describe("round trips and fallbacks", () => {
  it("answers a full page in one round trip", async () => {
    await withProxy({}, async (proxy, c) => {
      const result = await storageRangeAt(c, { blockHash: blockA, address: chain.address, startKey: "0x1f", maxResults: 10, logger: console });
      expect(Object.keys(result.storage)).toHaveLength(10);
      expect(proxy.httpRequests).toBe(1);
    });
  });

  it("skips failed slot reads with a warning, inside batches and alone, exactly like the oracle", async () => {
    await withProxy({ failSlots: new Set(["0x2", "0x7", "0x20", "0x23"]) }, async (_proxy, c) => {
      for (const [startKey, maxResults] of [["0x0", 3], ["0x0", 10], ["0x1f", 4], ["0x0", 60]] as const) {
        const r = await expectSameAsOracle(c, { blockHash: blockA, address: chain.address, startKey, maxResults });
        if (startKey === "0x0" && maxResults === 3) {
          expect(r.ours).toEqual({
            jsonrpc: "2.0",
            id: 1,
            // 30 attempts (slots 0-29) find only 0 and 6 once 2 fails: the page is not full.
            result: { storage: { "0x0": { key: null, value: word(1) }, "0x6": { key: null, value: word(BigInt(chain.deployer)) } }, nextKey: null },
          });
          expect(r.ourWarnings).toEqual([`Warning: failed to read slot 0x2: ${INJECTED_FAILURE}`, `Warning: failed to read slot 0x7: ${INJECTED_FAILURE}`]);
        }
      }
    });
  });

  it.each([
    ["batches rejected", { rejectBatches: true }],
    ["batches over 5 calls refused with HTTP 413", { maxBatchSize: 5 }],
    ["every third answer left out of a batch", { dropEvery: 3 }],
    ["partial answers plus failing slots", { dropEvery: 4, failSlots: new Set(["0x0", "0x21", "0x30"]) }],
    ["the node refuses EIP-1898 block objects", { refuseBlockObjects: true, failSlots: new Set(["0x6"]) }],
  ] as const)("gives identical results when %s", async (_name, options) => {
    await withProxy(options, async (proxy, c) => {
      for (const [startKey, maxResults] of [["0x0", 3], ["0x1f", 10], ["0x0", 60]] as const) {
        proxy.reset();
        await expectSameAsOracle(c, { blockHash: blockA, address: chain.address, startKey, maxResults });
      }
    });
  });
});
