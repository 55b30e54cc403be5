import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../lib/freePort.js";
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from "./_test/scriptedServer.js";
import { createBatchCaller } from "./createBatchCaller.js";
import { createJsonRpcClient } from "./createJsonRpcClient.js";
import { ConnectionError, InvalidParamsRpcError, TimeoutError } from "./errors.js";

type Req = { id: number; method: string; params: [number] };

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Echoes params[0] * 10; `answer` may veto a batch or an item. */
async function echoServer(options: { maxBatch?: number; noBatches?: boolean; drop?: (r: Req) => boolean; fail?: (r: Req) => boolean }) {
  const one = (r: Req) =>
    options.fail?.(r)
      ? { jsonrpc: "2.0", id: r.id, error: { code: -32602, message: `bad ${r.params[0]}` } }
      : { jsonrpc: "2.0", id: r.id, result: r.params[0] * 10 };
  server = await startScriptedServer((body): ScriptedReply => {
    if (!Array.isArray(body)) return { body: JSON.stringify(one(body as Req)) };
    if (options.noBatches) return { body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "no batches" } }) };
    if (options.maxBatch !== undefined && body.length > options.maxBatch) return { status: 413, body: "too large" };
    return { body: JSON.stringify((body as Req[]).filter((r) => !options.drop?.(r)).map(one)) };
  });
  return server;
}

const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ method: "m", params: [i] }));
const results = (n: number) => Array.from({ length: n }, (_, i) => ({ ok: true, result: i * 10 }));

describe("createBatchCaller", () => {
  it("sends up to maxBatchSize calls per POST", async () => {
    const s = await echoServer({});
    const caller = createBatchCaller(createJsonRpcClient({ url: s.url }), { maxBatchSize: 4 });
    await expect(caller.call(calls(10))).resolves.toEqual(results(10));
    expect(s.received.map((b) => (b as unknown[]).length)).toEqual([4, 4, 2]);
  });

  it("halves batches the node refuses as too large, and keeps the size that worked", async () => {
    const s = await echoServer({ maxBatch: 3 });
    const caller = createBatchCaller(createJsonRpcClient({ url: s.url }), { maxBatchSize: 12 });
    await expect(caller.call(calls(12))).resolves.toEqual(results(12));
    expect(caller.batchSize).toBe(3);
    const before = s.received.length;
    await caller.call(calls(6));
    expect(s.received.length - before).toBe(2);
  });

  it("falls back to single requests when the node takes no batches", async () => {
    const s = await echoServer({ noBatches: true });
    const caller = createBatchCaller(createJsonRpcClient({ url: s.url }), { maxBatchSize: 8 });
    await expect(caller.call(calls(8))).resolves.toEqual(results(8));
    expect(caller.batchSize).toBe(0);
    expect(s.received.filter((b) => !Array.isArray(b))).toHaveLength(8);
  });

  it("asks again, alone, for calls a batch left out or answered with an error", async () => {
    let failInBatchOnly = true;
    const s = await echoServer({ drop: (r) => r.params[0] % 3 === 0, fail: (r) => r.params[0] === 4 && failInBatchOnly });
    const client = createJsonRpcClient({ url: s.url });
    const entries = await createBatchCaller(client).call(calls(7));
    // Item 4 fails alone too here, so it stays an error; dropped items are recovered.
    expect(entries.map((e) => e.ok)).toEqual([true, true, true, true, false, true, true]);
    expect(entries[4]?.ok === false && entries[4].error).toBeInstanceOf(InvalidParamsRpcError);
    failInBatchOnly = false;
    await expect(createBatchCaller(client).call(calls(7))).resolves.toEqual(results(7));
  });

  it("does not fan out to single requests when nothing answers", async () => {
    const client = createJsonRpcClient({ url: `http://127.0.0.1:${await freePort()}` });
    const entries = await createBatchCaller(client).call(calls(5));
    expect(entries.every((e) => !e.ok && e.error instanceof ConnectionError)).toBe(true);
  });

  it("gives up on a node that does not answer in time instead of splitting the batch", async () => {
    server = await startScriptedServer(() => ({ body: "[]", delayMs: 1_000 }));
    const client = createJsonRpcClient({ url: server.url, timeoutMs: 50 });
    const entries = await createBatchCaller(client).call(calls(6));
    expect(entries.every((e) => !e.ok && e.error instanceof TimeoutError)).toBe(true);
    expect(server.received).toHaveLength(1);
  });
});
