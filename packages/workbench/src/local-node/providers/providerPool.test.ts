// The pool against loopback servers scripted per request (the fault proxy in front of the real chain is
// e2e/providerFaults.test.ts): Retry-After, failover, hedging, batch elements, what reaches the caller.
import { createServer, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listen, readText, type RunningServer } from "../../lib/http/index.js";
import { RpcResponseError } from "../../json-rpc/index.js";
import { createProviderPool } from "./providerPool.js";

type Call = { id: number; method: string; params: unknown[] };
type Reply = { status?: number; headers?: Record<string, string>; body: unknown; delayMs?: number } | "reset";

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A provider whose answer to each POST is `reply(body, n)`, n counting its requests from 0. */
async function provider(reply: (body: Call | Call[], n: number) => Reply): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const server = createServer((req, res: ServerResponse) => {
    void readText(req).then(async (text) => {
      const r = reply(JSON.parse(text) as Call | Call[], n++);
      if (r === "reset") return req.socket.destroy();
      if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
      res.writeHead(r.status ?? 200, { "content-type": "application/json", ...r.headers }).end(JSON.stringify(r.body));
    });
  });
  const running = await listen(server);
  servers.push(running);
  return { url: running.url, requests: () => n };
}

const ok = (c: Call, result: unknown) => ({ jsonrpc: "2.0", id: c.id, result });
const one = (body: Call | Call[]) => (Array.isArray(body) ? body[0]! : body);
const seeded = { random: () => 0.5 };

describe("createProviderPool", () => {
  it("waits out a 429's Retry-After on the only provider, and asks a second provider at once instead", async () => {
    const limited = await provider((b, n) => (n === 0 ? { status: 429, headers: { "retry-after": "1" }, body: { jsonrpc: "2.0", id: one(b).id, error: { code: -32005, message: "project ID request rate exceeded" } } } : { body: ok(one(b), "0x10") }));
    const alone = createProviderPool({ network: "mainnet", providers: [{ label: "a", url: limited.url, features: [] }], tuning: seeded });
    let started = Date.now();
    await expect(alone.request("eth_blockNumber", [])).resolves.toBe("0x10");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(alone.providers()[0]).toMatchObject({ served: 1, failed: 1, consecutiveFailures: 0 });

    const limitedAgain = await provider((b) => ({ status: 429, headers: { "retry-after": "5" }, body: { jsonrpc: "2.0", id: one(b).id, error: { code: 429, message: "Your app has exceeded its compute units per second capacity." } } }));
    const spare = await provider((b) => ({ body: ok(one(b), "0x11") }));
    const two = createProviderPool({ network: "mainnet", providers: [{ label: "a", url: limitedAgain.url, features: [] }, { label: "b", url: spare.url, features: [] }], tuning: seeded });
    started = Date.now();
    await expect(two.request("eth_blockNumber", [])).resolves.toBe("0x11");
    expect(Date.now() - started).toBeLessThan(500);
    expect(two.providers().map((p) => p.state)).toEqual(["backing off", "ok"]);
    expect(two.providers()[0]!.reason).toMatch(/^rate limited:/);
  });

  it("sends a request far slower than its usual time again (to the same provider when it is the only one), and takes the first answer", async () => {
    // The fourth request is held 3 s; its copy is answered at once.
    const p = await provider((b, n) => ({ body: ok(one(b), "0x1"), ...(n === 3 ? { delayMs: 3_000 } : {}) }));
    const pool = createProviderPool({ network: "mainnet", providers: [{ label: "only", url: p.url, features: [] }], tuning: seeded });
    for (let i = 0; i < 3; i++) await pool.request("eth_chainId", []);
    const started = Date.now();
    await expect(pool.request("eth_chainId", [])).resolves.toBe("0x1");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(pool.stats).toMatchObject({ hedged: 1, hedgesWon: 1 });
    expect(p.requests()).toBe(5);
  });

  it("asks again alone for batch elements left out, rate limited or null for a block the chain has; the rest stands", async () => {
    let singles = 0;
    const p = await provider((body) => {
      if (!Array.isArray(body)) {
        singles++;
        return { body: ok(body, body.method === "eth_blockNumber" ? "0x64" : { number: body.params[0], hash: "0xab" }) };
      }
      const answers = body.map((c) => ok(c, { number: c.params[0], hash: "0xab" }));
      answers.splice(1, 1); // left out
      answers[1] = { jsonrpc: "2.0", id: body[2]!.id, error: { code: 429, message: "Your app has exceeded its compute units per second capacity." } } as never;
      answers[2] = ok(body[3]!, null); // null for a block below the head
      return { body: answers.reverse() };
    });
    const pool = createProviderPool({ network: "mainnet", providers: [{ label: "a", url: p.url, features: [] }], tuning: seeded });
    await pool.request("eth_blockNumber", []);
    const calls = [1, 2, 3, 4, 5].map((n) => ({ method: "eth_getBlockByNumber", params: [`0x${n}`, false] }));
    const blocks = await pool.batch<{ number: string }>(calls);
    expect(blocks.map((b) => b.number)).toEqual(["0x1", "0x2", "0x3", "0x4", "0x5"]);
    expect(singles).toBe(1 + 3);
    expect(pool.stats.batchElementsAskedAgain).toBe(3);
  });

  it("gives the caller a range cap or a real error at once, and a transport fault never", async () => {
    let n = 0;
    const p = await provider((b) => {
      const c = one(b);
      if (c.method === "eth_getLogs") return { body: { jsonrpc: "2.0", id: c.id, error: { code: -32602, message: "query exceeds max block range 1000" } } };
      if (c.method === "eth_call") return { body: { jsonrpc: "2.0", id: c.id, error: { code: 3, message: "execution reverted" } } };
      return n++ < 2 ? "reset" : { body: ok(c, "0x5") };
    });
    const pool = createProviderPool({ network: "mainnet", providers: [{ label: "a", url: p.url, features: [] }], tuning: { ...seeded, backoffBaseMs: 10 } });
    await expect(pool.request("eth_getLogs", [{ fromBlock: "0x0", toBlock: "0x7d0" }])).rejects.toThrow(/max block range/);
    await expect(pool.request("eth_call", [{ to: "0x0" }, "0x1"])).rejects.toBeInstanceOf(RpcResponseError);
    await expect(pool.request("eth_blockNumber", [])).resolves.toBe("0x5");
    expect(p.requests()).toBe(5);
  });
});
