import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRpcClient } from "./rpcClient.js";
import { HttpRequestError, RpcResponseError, TimeoutError } from "../../json-rpc/index.js";
import { maskUrl } from "../../lib/redact.js";

let server: Server;
let base = "";
const bodies: unknown[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.url?.includes("broken")) return void res.writeHead(502).end("bad gateway");
      if (req.url?.includes("slow")) return void setTimeout(() => res.end("{}"), 500);
      const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
      bodies.push(parsed);
      const one = (r: { id: number; method: string; params: unknown[] }) =>
        r.method === "fail" ? { jsonrpc: "2.0", id: r.id, error: { code: -32000, message: "nope" } } : { jsonrpc: "2.0", id: r.id, result: r.params[0] };
      // Answer batches in reverse order: the client must match by id.
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one).reverse() : one(parsed)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("createRpcClient", () => {
  it("sends single requests and batches, results in call order", async () => {
    const rpc = createRpcClient({ url: base, maxBatchSize: 3 });
    expect(await rpc.request("echo", ["a"])).toBe("a");
    bodies.length = 0;
    const out = await rpc.batch(Array.from({ length: 7 }, (_, i) => ({ method: "echo", params: [i] })));
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(bodies.map((b) => (b as unknown[]).length)).toEqual([3, 3, 1]);
  });

  it("throws the client's RpcResponseError with the node's code", async () => {
    const rpc = createRpcClient({ url: base });
    const err = await rpc.batch([{ method: "echo", params: [1] }, { method: "fail", params: [] }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcResponseError);
    expect((err as RpcResponseError).code).toBe(-32000);
  });

  it("never shows the key in a URL", async () => {
    const rpc = createRpcClient({ url: `${base}/broken/v3/0123456789abcdef0123456789abcdef?key=secret` });
    const err = (await rpc.request("echo", [1]).catch((e: unknown) => e)) as HttpRequestError;
    expect(err).toBeInstanceOf(HttpRequestError);
    expect(err.message).toContain("status 502");
    expect(err.message).not.toContain("0123456789abcdef0123456789abcdef");
    expect(err.message).not.toContain("secret");
    expect(maskUrl("https://user:pw@host.example/abc")).toBe("https://host.example/abc");
  });

  it("times out", async () => {
    const rpc = createRpcClient({ url: `${base}/slow`, timeoutMs: 50 });
    const err = await rpc.request("echo", [1]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });
});
