import { createServer, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listen, readText, type RunningServer } from "../lib/http/index.js";
import { createJsonRpcClient } from "./createJsonRpcClient.js";
import { ConnectionError, ResponseTooLargeError } from "./errors.js";
import { AnswerTooLarge, postOverHttp } from "./postText.js";
import { keptReceiveBytes } from "./receiveBuffers.js";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A loopback server that answers each POST with `answer(body, res)`. */
async function serve(answer: (body: string, res: ServerResponse) => void): Promise<string> {
  server = await listen(createServer((req, res) => void readText(req).then((body) => answer(body, res))));
  return server.url;
}

/** Writes `text` in pieces, chunked (no content-length), so that the reader has to grow its buffer. */
function writeInPieces(res: ServerResponse, text: string, pieces: number): void {
  res.writeHead(200, { "content-type": "application/json" });
  const bytes = Buffer.from(text, "utf8");
  const step = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += step) res.write(bytes.subarray(at, at + step));
  res.end();
}

const signal = () => AbortSignal.timeout(10_000);
/** No limit that these answers come near. */
const LIMIT = 1 << 30;

describe("postOverHttp", () => {
  it("reads a large chunked answer exactly, multi-byte characters split across chunks included", async () => {
    // "é" and "€" are 2 and 3 bytes: with 997 pieces some are cut in the middle.
    const big = JSON.stringify({ result: Array.from({ length: 40_000 }, (_, i) => `log ${i} é€ 0x${i.toString(16).padStart(64, "0")}`) });
    const url = await serve((_, res) => writeInPieces(res, big, 997));
    const answer = await postOverHttp(url, "{}", { "content-type": "application/json" }, signal(), LIMIT);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(big);
  });

  it("gives each answer only its own bytes when a kept buffer from a longer one is reused", async () => {
    const long = "x".repeat(500_000);
    const url = await serve((body, res) => writeInPieces(res, body === "long" ? long : "short", 7));
    expect((await postOverHttp(url, "long", {}, signal(), LIMIT)).text).toBe(long);
    expect(keptReceiveBytes()).toBeGreaterThanOrEqual(long.length);
    expect((await postOverHttp(url, "short", {}, signal(), LIMIT)).text).toBe("short");
  });

  it("keeps concurrent answers apart", async () => {
    const url = await serve((body, res) => setTimeout(() => writeInPieces(res, body.repeat(50_000), 13), body === "a" ? 30 : 0));
    const [a, b, c] = await Promise.all(["a", "b", "c"].map((body) => postOverHttp(url, body, {}, signal(), LIMIT)));
    expect([a!.text, b!.text, c!.text]).toEqual(["a".repeat(50_000), "b".repeat(50_000), "c".repeat(50_000)]);
  });

  it("passes the status and body of an error answer", async () => {
    const url = await serve((_, res) => res.writeHead(503, { "content-type": "text/plain" }).end("busy"));
    await expect(postOverHttp(url, "{}", {}, signal(), LIMIT)).resolves.toEqual({ status: 503, text: "busy" });
  });

  it("stops reading an answer that grows past the limit, and hangs up on it", async () => {
    let cut = false;
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // Without end, as a hostile node would: one 64 KiB piece every few milliseconds until the client hangs up.
      const piece = Buffer.alloc(64 * 1024, 0x20);
      const timer = setInterval(() => res.write(piece), 2);
      res.on("close", () => ((cut = true), clearInterval(timer)));
    });
    const err = await postOverHttp(url, "{}", {}, signal(), 1024 * 1024).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerTooLarge);
    expect((err as AnswerTooLarge).limitBytes).toBe(1024 * 1024);
    await vi.waitFor(() => expect(cut).toBe(true));
  });

  it("refuses at once an answer whose declared length passes the limit", async () => {
    const url = await serve((_, res) => res.writeHead(200, { "content-length": String(4096) }).end("x".repeat(4096)));
    await expect(postOverHttp(url, "{}", {}, signal(), 4095)).rejects.toBeInstanceOf(AnswerTooLarge);
    await expect(postOverHttp(url, "{}", {}, signal(), 4096)).resolves.toMatchObject({ status: 200 });
  });

  it("refuses an endpoint that is not http: or https:", async () => {
    await expect(postOverHttp("ws://127.0.0.1:1/", "{}", {}, signal(), LIMIT)).rejects.toThrow(/only http: and https: endpoints/);
  });
});

describe("the client over postOverHttp", () => {
  it("does not take a declared length at its word: 200 MiB declared, a byte sent, no 200 MiB kept", async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(200 * 1024 ** 2) });
      res.write("{");
      setTimeout(() => res.destroy(), 20);
    });
    await expect(createJsonRpcClient({ url }).request("eth_blockNumber", [])).rejects.toBeInstanceOf(ConnectionError);
    expect(keptReceiveBytes()).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it("fails an answer past maxResponseBytes with ResponseTooLargeError, over node:http and over a given fetch, and answers the next call", async () => {
    const result = "0x" + "ab".repeat(5_000);
    const url = await serve((body, res) => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      writeInPieces(res, JSON.stringify({ jsonrpc: "2.0", id, result: method === "big" ? result : "0x1" }), 5);
    });
    for (const client of [createJsonRpcClient({ url, maxResponseBytes: 8_000 }), createJsonRpcClient({ url, maxResponseBytes: 8_000, fetch: globalThis.fetch })]) {
      const err = await client.request("big", []).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect((err as ResponseTooLargeError).message).toMatch(/larger than 8000 bytes/);
      await expect(client.request("small", [])).resolves.toBe("0x1");
    }
  });

  it("reports an answer cut off mid-way as a connection error", async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
      res.write('{"jsonrpc":"2.0","id":1,"result":"');
      setTimeout(() => res.destroy(), 20);
    });
    const err = await createJsonRpcClient({ url }).request("eth_getLogs", []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
  });
});
