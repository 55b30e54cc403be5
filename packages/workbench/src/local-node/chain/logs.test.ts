import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { createLogFetcher, isRangeLimitError } from "./logs.js";
import { HttpRequestError, ResponseTooLargeError, RpcResponseError, TimeoutError } from "../../json-rpc/index.js";
import { listen, readText } from "../../lib/http/index.js";
import { createRpcClient, type RpcClient } from "./rpcClient.js";
import { ChainError } from "./errors.js";

/** A fake node holding one log per block that refuses ranges wider than `limit` blocks. */
function fakeNode(limit: number, message: string, code = -32005) {
  const calls: [number, number][] = [];
  const rpc: RpcClient = {
    displayUrl: "fake",
    async request<T>(method: string, params: unknown[]): Promise<T> {
      expect(method).toBe("eth_getLogs");
      const p = params[0] as { fromBlock: string; toBlock: string; address: string; topics: string[] };
      const from = Number.parseInt(p.fromBlock, 16);
      const to = Number.parseInt(p.toBlock, 16);
      calls.push([from, to]);
      if (to - from + 1 > limit) throw new RpcResponseError({ code, message });
      const logs = [];
      for (let n = from; n <= to; n++) {
        logs.push({ address: p.address, topics: p.topics, data: "0x", blockNumber: `0x${n.toString(16)}`, blockHash: `0x${"1".repeat(64)}`, transactionHash: `0x${"2".repeat(64)}`, transactionIndex: "0x0", logIndex: "0x0", removed: false });
      }
      return logs as T;
    },
    async batch() {
      throw new Error("unused");
    },
  };
  return { rpc, calls };
}

const filter = { addresses: ["0xabc"], topic0s: ["0xdead"] };

describe("createLogFetcher", () => {
  it("shrinks the range on a limit error and covers every block exactly once", async () => {
    const { rpc, calls } = fakeNode(300, "query returned more than 10000 results");
    const fetcher = createLogFetcher({ rpc, initialRange: 2000 });
    const seen: number[] = [];
    let from = 0;
    while (from <= 1999) {
      const chunk = await fetcher.next(from, 1999, filter);
      for (const l of chunk.logs) seen.push(l.blockNumber);
      from = chunk.toBlock + 1;
    }
    expect(seen).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(calls[0]).toEqual([0, 1999]);
    // Refusals stay rare once the fetcher has learnt the limit.
    const refused = calls.filter(([a, b]) => b - a + 1 > 300).length;
    expect(refused).toBeGreaterThan(2);
    expect(refused).toBeLessThan(12);
  });

  it("uses the range a provider suggests in its error", async () => {
    const { rpc, calls } = fakeNode(100, "Log response size exceeded. this block range should work: [0x0, 0x63]", -32602);
    const fetcher = createLogFetcher({ rpc, initialRange: 5000 });
    const chunk = await fetcher.next(0, 4999, filter);
    expect(chunk.toBlock).toBe(99);
    expect(calls).toEqual([
      [0, 4999],
      [0, 99],
    ]);
  });

  it("says why it shrinks: a timeout is told with the blocks it covered", async () => {
    const { rpc } = fakeNode(40, "unused");
    const slow: RpcClient = {
      ...rpc,
      async request<T>(method: string, params: unknown[]): Promise<T> {
        const p = params[0] as { fromBlock: string; toBlock: string };
        if (Number.parseInt(p.toBlock, 16) - Number.parseInt(p.fromBlock, 16) + 1 > 40) throw new TimeoutError({ url: "http://127.0.0.1:8545", timeoutMs: 30_000 });
        return rpc.request<T>(method, params);
      },
    };
    const told: string[] = [];
    const fetcher = createLogFetcher({ rpc: slow, initialRange: 100, onShrink: (m) => told.push(m) });
    const chunk = await fetcher.next(10, 500, filter);
    expect(chunk.toBlock).toBe(34);
    expect(told).toEqual([
      "eth_getLogs for blocks 10-109 failed (The JSON-RPC request took longer than 30000 ms); trying 50 blocks",
      "eth_getLogs for blocks 10-59 failed (The JSON-RPC request took longer than 30000 ms); trying 25 blocks",
    ]);
  });

  it("grows the range while answers stay small", async () => {
    const { rpc } = fakeNode(1_000_000, "never");
    const fetcher = createLogFetcher({ rpc, initialRange: 10, maxRange: 80, growBelowLogs: 1000 });
    let from = 0;
    for (let i = 0; i < 5; i++) from = (await fetcher.next(from, 10_000, filter)).toBlock + 1;
    expect(fetcher.range).toBe(80);
  });

  it("asks for fewer blocks when an answer passes the client's size limit (a real client over HTTP)", async () => {
    // One log per block, about 420 bytes of JSON each: 2,000 blocks are about 840 KB.
    const server = await listen(
      createServer((req, res) => {
        void readText(req).then((body) => {
          const { id, params } = JSON.parse(body) as { id: number; params: [{ fromBlock: string; toBlock: string }] };
          const logs = [];
          for (let n = Number.parseInt(params[0].fromBlock, 16); n <= Number.parseInt(params[0].toBlock, 16); n++) {
            logs.push({ address: "0xabc", topics: ["0xdead"], data: `0x${"0".repeat(64)}`, blockNumber: `0x${n.toString(16)}`, blockHash: `0x${"1".repeat(64)}`, transactionHash: `0x${"2".repeat(64)}`, transactionIndex: "0x0", logIndex: "0x0", removed: false });
          }
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: logs }));
        });
      }),
    );
    try {
      const shrinks: string[] = [];
      const fetcher = createLogFetcher({ rpc: createRpcClient({ url: server.url, maxResponseBytes: 64 * 1024 }), onShrink: (m) => shrinks.push(m) });
      const blocks: number[] = [];
      for (let from = 0; from <= 999; ) {
        const chunk = await fetcher.next(from, 999, filter);
        blocks.push(...chunk.logs.map((l) => l.blockNumber));
        from = chunk.toBlock + 1;
      }
      expect(blocks).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      expect(shrinks[0]).toMatch(/eth_getLogs for blocks 0-999 failed \(The JSON-RPC answer is larger than 65536 bytes\)/);
    } finally {
      await server.close();
    }
  });

  it("passes other errors through", async () => {
    const { rpc } = fakeNode(1, "execution reverted", 3);
    const fetcher = createLogFetcher({ rpc, initialRange: 10 });
    await expect(fetcher.next(0, 9, filter)).rejects.toThrow(/execution reverted/);
  });

  it("refuses an answer that is not a list of logs, saying so", async () => {
    const answering = (result: unknown): RpcClient => ({ displayUrl: "fake", request: async <T>() => result as T, batch: async () => [] });
    await expect(createLogFetcher({ rpc: answering(null) }).next(0, 9, filter)).rejects.toThrow("eth_getLogs answered with something other than a list of logs");
    await expect(createLogFetcher({ rpc: answering([1]) }).next(0, 9, filter)).rejects.toThrow(ChainError);
  });

  it("classifies limit errors", () => {
    expect(isRangeLimitError(new RpcResponseError({ code: -32000, message: "block range is too wide" }))).toBe(true);
    expect(isRangeLimitError(new TimeoutError({ url: "http://127.0.0.1:8545", timeoutMs: 30_000 }))).toBe(true);
    expect(isRangeLimitError(new HttpRequestError({ status: 413, url: "http://127.0.0.1:8545", body: "" }))).toBe(true);
    expect(isRangeLimitError(new ResponseTooLargeError({ url: "http://127.0.0.1:8545", limitBytes: 1024 }))).toBe(true);
    expect(isRangeLimitError(new HttpRequestError({ status: 500, url: "http://127.0.0.1:8545", body: "" }))).toBe(false);
    expect(isRangeLimitError(new RpcResponseError({ code: -32000, message: "header not found" }))).toBe(false);
    // A rate limit or an overloaded node is never a range too large: the range must not shrink for it.
    expect(isRangeLimitError(new HttpRequestError({ status: 429, url: "http://127.0.0.1:8545", body: "Too Many Requests" }))).toBe(false);
    expect(isRangeLimitError(new HttpRequestError({ status: 503, url: "http://127.0.0.1:8545", body: "" }))).toBe(false);
    expect(isRangeLimitError(new RpcResponseError({ code: -32005, message: "project ID request rate exceeded" }))).toBe(false);
    expect(isRangeLimitError(new RpcResponseError({ code: 429, message: "Your app has exceeded its compute units per second capacity." }))).toBe(false);
  });
});
