import { createServer, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listen, readText, type RunningServer } from "../../lib/http/index.js";
import { createJsonRpcClient } from "./createJsonRpcClient.js";
import { ConnectionError } from "./errors.js";
import { postOverHttp } from "./postText.js";
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

describe("postOverHttp", () => {
  it("reads a large chunked answer exactly, multi-byte characters split across chunks included", async () => {
    // "é" and "€" are 2 and 3 bytes: with 997 pieces some are cut in the middle.
    const big = JSON.stringify({ result: Array.from({ length: 40_000 }, (_, i) => `log ${i} é€ 0x${i.toString(16).padStart(64, "0")}`) });
    const url = await serve((_, res) => writeInPieces(res, big, 997));
    const answer = await postOverHttp(url, "{}", { "content-type": "application/json" }, signal());
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(big);
  });

  it("gives each answer only its own bytes when a kept buffer from a longer one is reused", async () => {
    const long = "x".repeat(500_000);
    const url = await serve((body, res) => writeInPieces(res, body === "long" ? long : "short", 7));
    expect((await postOverHttp(url, "long", {}, signal())).text).toBe(long);
    expect(keptReceiveBytes()).toBeGreaterThanOrEqual(long.length);
    expect((await postOverHttp(url, "short", {}, signal())).text).toBe("short");
  });

  it("keeps concurrent answers apart", async () => {
    const url = await serve((body, res) => setTimeout(() => writeInPieces(res, body.repeat(50_000), 13), body === "a" ? 30 : 0));
    const [a, b, c] = await Promise.all(["a", "b", "c"].map((body) => postOverHttp(url, body, {}, signal())));
    expect([a!.text, b!.text, c!.text]).toEqual(["a".repeat(50_000), "b".repeat(50_000), "c".repeat(50_000)]);
  });

  it("passes the status and body of an error answer", async () => {
    const url = await serve((_, res) => res.writeHead(503, { "content-type": "text/plain" }).end("busy"));
    await expect(postOverHttp(url, "{}", {}, signal())).resolves.toEqual({ status: 503, text: "busy" });
  });

  it("refuses an endpoint that is not http: or https:", async () => {
    await expect(postOverHttp("ws://127.0.0.1:1/", "{}", {}, signal())).rejects.toThrow(/only http: and https: endpoints/);
  });
});

describe("the client over postOverHttp", () => {
  it("does not take a declared length of 8 GiB at its word", async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(8 * 1024 ** 3) });
      res.write("{");
      setTimeout(() => res.destroy(), 20);
    });
    await expect(createJsonRpcClient({ url }).request("eth_blockNumber", [])).rejects.toBeInstanceOf(ConnectionError);
    expect(keptReceiveBytes()).toBeLessThanOrEqual(64 * 1024 * 1024);
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
