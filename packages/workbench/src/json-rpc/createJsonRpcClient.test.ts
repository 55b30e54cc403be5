import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../lib/freePort.js";
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from "./_test/scriptedServer.js";
import { createJsonRpcClient } from "./createJsonRpcClient.js";
import {
  ConnectionError,
  HttpRequestError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  InvalidResponseError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  MissingBatchResponseError,
  RpcClientError,
  RpcResponseError,
  ServerRpcError,
  TimeoutError,
} from "./errors.js";

const KEY = "a1b2c3d4e5f60718293a4b5c6d7e8f90";

type Req = { id: number; method: string; params: unknown };

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: (body: unknown) => ScriptedReply) {
  server = await startScriptedServer(reply);
  return server;
}

const ok = (id: number, result: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result });
const fail = (id: number | null, code: number, message: string) => JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });

describe("request", () => {
  it("posts a JSON-RPC 2.0 body to the endpoint path and returns the result", async () => {
    const s = await serve((b) => ({ body: ok((b as Req).id, { echo: (b as Req).params }) }));
    const client = createJsonRpcClient({ url: `${s.url}/${KEY}` });
    await expect(client.request("eth_getStorageAt", ["0x1", "0x0"])).resolves.toEqual({ echo: ["0x1", "0x0"] });
    expect(s.received[0]).toMatchObject({ jsonrpc: "2.0", method: "eth_getStorageAt", params: ["0x1", "0x0"] });
    expect(typeof (s.received[0] as Req).id).toBe("number");
    expect(s.paths[0]).toBe(`/${KEY}`);
  });

  it("maps JSON-RPC error codes to classes and keeps the node's text", async () => {
    const cases: [number, string, new (...args: never[]) => RpcResponseError][] = [
      [-32600, "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.", InvalidRequestRpcError],
      [-32601, "Method not found", MethodNotFoundRpcError],
      [-32602, "Too many inputs provided; max 100", InvalidParamsRpcError],
      [-32000, "header not found", ServerRpcError],
      [-32005, "rate limited", LimitExceededRpcError],
      [-31999, "custom", RpcResponseError],
    ];
    let i = 0;
    const s = await serve((b) => {
      const [code, message] = cases[i++]!;
      return { body: fail((b as Req).id, code, message) };
    });
    const client = createJsonRpcClient({ url: s.url });
    for (const [code, message, Cls] of cases) {
      const error = await client.request("m").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Cls);
      expect(error).toBeInstanceOf(RpcClientError);
      expect((error as RpcResponseError).code).toBe(code);
      expect((error as RpcResponseError).message).toBe(message);
    }
  });

  it("gives the HTTP status when the answer is not JSON-RPC, with the key masked", async () => {
    const s = await serve(() => ({ status: 502, body: "<html>bad gateway</html>" }));
    const client = createJsonRpcClient({ url: `${s.url}/${KEY}` });
    const error = await client.request("m").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpRequestError);
    expect((error as HttpRequestError).status).toBe(502);
    expect((error as Error).message).toContain(`${s.url}/***`);
    expect((error as Error).message).not.toContain(KEY);
    expect(client.url).toBe(`${s.url}/***`);
  });

  it("prefers a JSON-RPC error body over a non-2xx status", async () => {
    const s = await serve((b) => ({ status: 429, body: fail((b as Req).id, -32005, "Too many requests") }));
    const error = await createJsonRpcClient({ url: s.url }).request("m").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededRpcError);
  });

  it("rejects a 200 body that is JSON but not JSON-RPC", async () => {
    const s = await serve(() => ({ body: JSON.stringify({ hello: 1 }) }));
    await expect(createJsonRpcClient({ url: s.url }).request("m")).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("keeps integers above 2^53 exact as bigint", async () => {
    const s = await serve((b) => ({ body: `{"jsonrpc":"2.0","id":${(b as Req).id},"result":{"rentEpoch":18446744073709551615,"lamports":5}}` }));
    const result = await createJsonRpcClient({ url: s.url }).request<{ rentEpoch: bigint; lamports: number }>("m");
    expect(result.rentEpoch).toBe(18446744073709551615n);
    expect(result.lamports).toBe(5);
  });

  it("parses with JSON.parse alone when exact integers are not asked for (an Ethereum node's hex quantities)", async () => {
    const s = await serve((b) => ({ body: `{"jsonrpc":"2.0","id":${(b as Req).id},"result":{"big":18446744073709551615,"hex":"0x10"}}` }));
    const result = await createJsonRpcClient({ url: s.url, exactIntegers: false }).request<{ big: unknown; hex: string }>("m");
    expect(result).toEqual({ big: 18446744073709552000, hex: "0x10" });
  });

  it("times out", async () => {
    const s = await serve((b) => ({ body: ok((b as Req).id, 1), delayMs: 2_000 }));
    const error = await createJsonRpcClient({ url: `${s.url}/${KEY}`, timeoutMs: 50 }).request("m").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).not.toContain(KEY);
  });

  it("reports a dead endpoint as a connection error without the key", async () => {
    const port = await freePort();
    const error = await createJsonRpcClient({ url: `http://user:pw@127.0.0.1:${port}/${KEY}?apikey=${KEY}` })
      .request("m")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).not.toContain(KEY);
    expect((error as Error).message).not.toContain("pw");
  });
});

describe("batch", () => {
  it("sends one POST and returns answers in request order whatever order the node uses", async () => {
    const s = await serve((b) => ({
      body: JSON.stringify(
        (b as Req[])
          .map((r) => (r.method === "bad" ? JSON.parse(fail(r.id, -32602, "bad param")) : JSON.parse(ok(r.id, r.params))))
          .reverse(),
      ),
    }));
    const client = createJsonRpcClient({ url: s.url });
    const entries = await client.batch([{ method: "a", params: [1] }, { method: "bad" }, { method: "c", params: [3] }]);
    expect(s.received).toHaveLength(1);
    expect(Array.isArray(s.received[0])).toBe(true);
    expect(entries[0]).toEqual({ ok: true, result: [1] });
    expect(entries[1]?.ok).toBe(false);
    expect(entries[1]?.ok === false && entries[1].error).toBeInstanceOf(InvalidParamsRpcError);
    expect(entries[2]).toEqual({ ok: true, result: [3] });
  });

  it("marks requests the node left out of its answer", async () => {
    const s = await serve((b) => ({ body: JSON.stringify((b as Req[]).slice(0, 1).map((r) => JSON.parse(ok(r.id, "first")))) }));
    const entries = await createJsonRpcClient({ url: s.url }).batch([{ method: "a" }, { method: "b" }]);
    expect(entries[0]).toEqual({ ok: true, result: "first" });
    expect(entries[1]?.ok === false && entries[1].error).toBeInstanceOf(MissingBatchResponseError);
  });

  it("throws when the node rejects the batch as a whole", async () => {
    const s = await serve(() => ({ body: fail(null, -32600, "batch requests are not supported") }));
    const error = await createJsonRpcClient({ url: s.url }).batch([{ method: "a" }, { method: "b" }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestRpcError);
    expect((error as Error).message).toBe("batch requests are not supported");
  });

  it("sends nothing for an empty batch", async () => {
    const s = await serve(() => ({ body: "[]" }));
    await expect(createJsonRpcClient({ url: s.url }).batch([])).resolves.toEqual([]);
    expect(s.received).toHaveLength(0);
  });
});
