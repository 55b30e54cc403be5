// The HTTP adder against a stand-in Kubo that records each request: graph-cli's address rules, the
// multipart it sends, the hash it reads, and clear, key-free errors when the answer is not an add's.
// (That its CIDs are graph-cli's own is proven against graph-cli in scripts/deployBuild.test.ts.)
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../lib/freePort.js";
import { IpfsAddError } from "./errors.js";
import { ipfsAddUrl, ipfsHttpAdder } from "./ipfsHttpAdder.js";

const KEY = "k3y0f7h3us3r5ecr3t9a8b7c6d";
const HASH = "QmWATWQ7fVPP2EFGu71UkfnqhYXDYH566qy47CnJDgvs8u";

interface Seen {
  method: string;
  url: string;
  contentType: string;
  body: Buffer;
}
let seen: Seen[] = [];
let answer: (res: ServerResponse) => void = () => undefined;
let base = "";
let close: () => Promise<void>;

beforeAll(async () => {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", contentType: req.headers["content-type"] ?? "", body: Buffer.concat(chunks) });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

function answers(status: number, body: string, type = "application/json"): void {
  seen = [];
  answer = (res) => res.writeHead(status, { "content-type": type }).end(body);
}

describe("ipfsAddUrl: where graph-cli's IPFS client posts an add", () => {
  it("is Kubo's /api/v0 for a bare host, with or without a slash", () => {
    expect(ipfsAddUrl("http://127.0.0.1:5001").href).toBe("http://127.0.0.1:5001/api/v0/add?stream-channels=true&progress=false");
    expect(ipfsAddUrl("http://127.0.0.1:5001/").href).toBe("http://127.0.0.1:5001/api/v0/add?stream-channels=true&progress=false");
  });

  it("takes any other path as the API's base (a platform's /<KEY>/ipfs)", () => {
    expect(ipfsAddUrl(`https://example.com/${KEY}/ipfs`).pathname).toBe(`/${KEY}/ipfs/add`);
    expect(ipfsAddUrl("http://127.0.0.1:5001/api/v0").pathname).toBe("/api/v0/add");
  });

  it("appends /api/v0 to The Graph's own .../ipfs addresses, as graph-cli does", () => {
    expect(ipfsAddUrl("https://api.thegraph.com/ipfs/").pathname).toBe("/ipfs/api/v0/add");
  });
});

describe("ipfsHttpAdder", () => {
  it("posts the bytes as one multipart file and answers the hash Kubo printed first", async () => {
    answers(200, `${JSON.stringify({ Name: "ApprovalToken/ApprovalToken.wasm", Hash: HASH, Size: "12" })}\n${JSON.stringify({ Name: "ApprovalToken", Hash: "QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn", Size: "70" })}\n`);
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 255, 13, 10, 45]);
    expect(await ipfsHttpAdder(base).add(bytes, "ApprovalToken/ApprovalToken.wasm")).toBe(HASH);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/api/v0/add?stream-channels=true&progress=false");
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(request?.contentType ?? "")?.[1] ?? "";
    expect(boundary).not.toBe("");
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ApprovalToken%2FApprovalToken.wasm"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    expect(request?.body.equals(Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]))).toBe(true);
  });

  it("posts under a platform address's own path", async () => {
    answers(200, `${JSON.stringify({ Name: "file", Hash: HASH, Size: "3" })}\n`);
    await ipfsHttpAdder(`${base}/${KEY}/ipfs`).add(new Uint8Array([1, 2, 3]));
    expect(seen[0]?.url).toBe(`/${KEY}/ipfs/add?stream-channels=true&progress=false`);
  });

  it("reports a refused add with Kubo's message, the key masked", async () => {
    answers(500, JSON.stringify({ Message: `no space left for ${KEY}`, Code: 0, Type: "error" }));
    const error = await ipfsHttpAdder(`${base}/${KEY}/ipfs`).add(new Uint8Array([1]), "schema.graphql").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IpfsAddError);
    const { message, endpoint, details } = error as IpfsAddError;
    expect(message).toBe(`the IPFS API at ${base}/***/ipfs refused to add schema.graphql: HTTP 500: no space left for ***`);
    expect(endpoint).toBe(`${base}/***/ipfs`);
    expect(JSON.stringify({ message, endpoint, details })).not.toContain(KEY);
  });

  it("reports an answer without a hash (a gateway's page, say), not a crash", async () => {
    answers(200, "<html>welcome</html>", "text/html");
    await expect(ipfsHttpAdder(base).add(new Uint8Array([1]))).rejects.toThrow(/answered adding file with no hash: "<html>welcome<\/html>"/);
    answers(200, `${JSON.stringify({ Name: "file", Hash: "not-a-cid" })}\n`);
    await expect(ipfsHttpAdder(base).add(new Uint8Array([1]))).rejects.toThrow(IpfsAddError);
  });

  it("reports an endpoint nobody listens on as unreachable, the key masked", async () => {
    const url = `http://127.0.0.1:${await freePort()}/${KEY}/ipfs`;
    const error = await ipfsHttpAdder(url).add(new Uint8Array([1]), "subgraph.yaml").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IpfsAddError);
    expect((error as Error).message).toMatch(/^the IPFS API at http:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ipfs is unreachable \(ECONNREFUSED\) while adding subgraph\.yaml$/);
    expect(JSON.stringify(error) + String((error as Error).cause) + (error as Error).stack).not.toContain(KEY);
  });

  it("gives up on an endpoint that never answers", async () => {
    seen = [];
    answer = () => undefined;
    await expect(ipfsHttpAdder(base, { timeoutMs: 200 }).add(new Uint8Array([1]))).rejects.toThrow(/did not answer adding file within 0\.2 s$/);
  });
});
