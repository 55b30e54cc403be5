import { request } from "node:http";
import { create as createKuboClient } from "kubo-rpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIRECTORY, SMALL_FILES } from "./_test/kuboFixtures.js";
import { MAX_ARGS, createIpfsServer } from "./ipfsServer.js";
import { createIpfsStore } from "./ipfsStore.js";
import type { IpfsStore, RunningServer } from "./types.js";

const enc = new TextEncoder();
let ipfs: IpfsStore;
let server: RunningServer;

beforeAll(async () => {
  ipfs = await createIpfsStore();
  server = await createIpfsServer({ ipfs, port: 0 });
});
afterAll(async () => {
  await server.close();
});

function multipart(files: { field: string; filename: string; body: string; type?: string }[]): { body: string; contentType: string } {
  const boundary = "-----------------------------testboundary";
  const body =
    files
      .map((f) => `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${encodeURIComponent(f.filename)}"\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n${f.body}\r\n`)
      .join("") + `--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("IPFS RPC: wire format", () => {
  it("binds to 127.0.0.1", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers add with Kubo's NDJSON lines (Name, Hash, Size as a string)", async () => {
    const { body, contentType } = multipart([
      { field: "file", filename: "hello.txt", body: "hello world\n" },
      { field: "file-1", filename: "dir/sub/ipfs.txt", body: "IPFS\n" },
    ]);
    const res = await fetch(`${server.url}/api/v0/add?stream-channels=true&progress=false`, { method: "POST", body, headers: { "content-type": contentType } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines[0]).toEqual({ Name: "hello.txt", Hash: "QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o", Size: "20" });
    expect(lines[1]).toMatchObject({ Name: "dir/sub/ipfs.txt", Hash: "QmdFyxZXsFiP4csgfM5uPu99AvFiKH62CSPDw5TP92nr7w" });
    expect(lines.slice(2).map((l) => l.Name)).toEqual(["dir/sub", "dir"]);
  });

  it("serves cat by CID and /ipfs/ path, with offset and length", async () => {
    const cid = await ipfs.add(enc.encode("Hello Worlds!\n"));
    const plain = await fetch(`${server.url}/api/v0/cat?arg=${cid}`, { method: "POST" });
    expect(await plain.text()).toBe("Hello Worlds!\n");
    const sliced = await fetch(`${server.url}/api/v0/cat?arg=/ipfs/${cid}&offset=10&length=2`, { method: "POST" });
    expect(await sliced.text()).toBe("ds");
  });

  it("answers errors in Kubo's JSON shape", async () => {
    const missingArg = await fetch(`${server.url}/api/v0/cat`, { method: "POST" });
    expect(missingArg.status).toBe(400);
    expect(await missingArg.json()).toEqual({ Message: 'argument "ipfs-path" is required', Code: 1, Type: "error" });

    const unknown = await fetch(`${server.url}/api/v0/cat?arg=QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH`, { method: "POST" });
    expect(unknown.status).toBe(500);
    expect(await unknown.json()).toEqual({
      Message: "block was not found locally (offline): ipld: could not find QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH",
      Code: 0,
      Type: "error",
    });

    const badCid = await fetch(`${server.url}/api/v0/cat?arg=nonsense`, { method: "POST" });
    expect(badCid.status).toBe(500);
    expect(((await badCid.json()) as { Message: string }).Message).toMatch(/^invalid path "nonsense"/);

    const cidV1 = await fetch(`${server.url}/api/v0/add?cid-version=1`, { method: "POST", ...multipartInit("x") });
    expect(cidV1.status).toBe(400);
    expect(((await cidV1.json()) as { Code: number }).Code).toBe(1);
  });

  it("answers a client error in Kubo's shape to an add body over maxBodyBytes", async () => {
    const small = await createIpfsServer({ ipfs, port: 0, maxBodyBytes: 100 });
    try {
      const res = await fetch(`${small.url}/api/v0/add`, { method: "POST", ...multipartInit("x".repeat(200)) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ Message: "request body larger than 100 bytes", Code: 1, Type: "error" });
    } finally {
      await small.close();
    }
  });

  it("is POST-only and 404s unknown commands, like Kubo", async () => {
    expect((await fetch(`${server.url}/api/v0/version`)).status).toBe(405);
    const unknown = await fetch(`${server.url}/api/v0/swarm/peers`, { method: "POST" });
    expect(unknown.status).toBe(404);
    const version = (await (await fetch(`${server.url}/api/v0/version`, { method: "POST" })).json()) as Record<string, string>;
    expect(Object.keys(version).sort()).toEqual(["Commit", "Golang", "Repo", "System", "Version"]);
  });

  it("answers commands named like Object's own properties 404, as any unknown command", async () => {
    for (const command of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const res = await fetch(`${server.url}/api/v0/${command}`, { method: "POST" });
      expect(res.status, command).toBe(404);
      expect(await res.text()).toBe("404 page not found\n");
    }
    expect((await fetch(`${server.url}/api/v0/version`, { method: "POST" })).status).toBe(200);
  });

  it("refuses browsers as Kubo does: a foreign Origin or Referer, or a browser POST with neither (403)", async () => {
    const version = (headers: Record<string, string>) => fetch(`${server.url}/api/v0/version`, { method: "POST", headers });
    const port = new URL(server.url).port;
    const foreign = await version({ Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    // Kubo allows only this port's own loopback origins, not another local port's page.
    const otherPort = await version({ Origin: "http://localhost:3000" });
    expect([otherPort.status, await otherPort.text()]).toEqual([403, "403 - Forbidden\n"]);
    expect((await version({ Referer: "https://evil.example/page" })).status).toBe(403);
    expect((await version({ "User-Agent": "Mozilla/5.0 (X11; Linux x86_64)" })).status).toBe(403);
    // DNS rebinding: fetch cannot set Host, node:http can.
    const rebound = await new Promise<number>((resolve, reject) =>
      request(`${server.url}/api/v0/version`, { method: "POST", headers: { Host: `evil.example:${port}` } }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on("error", reject).end(),
    );
    expect(rebound).toBe(403);
    // This port's own origins, Electron, and programs (curl, kubo-rpc-client) are served.
    expect((await version({ Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await version({ Origin: `http://localhost:${port}`, Referer: `http://localhost:${port}/webui` })).status).toBe(200);
    expect((await version({ "User-Agent": "Mozilla/5.0 Electron/30" })).status).toBe(200);
    expect((await version({ "User-Agent": "curl/8.5.0" })).status).toBe(200);
  });

  it("checks offset and length are integers it can hold, and caps the number of args", async () => {
    const cid = await ipfs.add(enc.encode("Hello Worlds!\n"));
    const huge = await fetch(`${server.url}/api/v0/cat?arg=${cid}&offset=99999999999999999999`, { method: "POST" });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toEqual({ Message: "Could not convert value '99999999999999999999' to type 'int64' (for option '-offset')", Code: 1, Type: "error" });
    expect((await fetch(`${server.url}/api/v0/cat?arg=${cid}&length=1e3`, { method: "POST" })).status).toBe(400);
    const many = await fetch(`${server.url}/api/v0/cat?${Array.from({ length: MAX_ARGS + 1 }, () => "arg=x").join("&")}`, { method: "POST" });
    expect(many.status).toBe(400);
    expect(((await many.json()) as { Message: string }).Message).toBe(`too many arguments: ${MAX_ARGS + 1}, at most ${MAX_ARGS} per request`);
  });

  it("adds a file named with `..` under its cleaned name, as Kubo does", async () => {
    const { body, contentType } = multipart([{ field: "file", filename: "../../outside.txt", body: "x" }]);
    const res = await fetch(`${server.url}/api/v0/add`, { method: "POST", body, headers: { "content-type": contentType } });
    expect(JSON.parse((await res.text()).trim().split("\n")[0]!)).toMatchObject({ Name: "outside.txt" });
  });

  it("pins stored content and refuses unknown CIDs", async () => {
    const cid = await ipfs.add(enc.encode(SMALL_FILES[4]!.text));
    const ok = await fetch(`${server.url}/api/v0/pin/add?arg=${cid}&stream=true`, { method: "POST" });
    expect(await ok.json()).toEqual({ Pins: [cid] });
    const missing = await fetch(`${server.url}/api/v0/pin/add?arg=QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH`, { method: "POST" });
    expect(missing.status).toBe(500);
    expect(((await missing.json()) as { Message: string }).Message).toMatch(/^pin: block was not found locally/);
  });

  it("serves block/get", async () => {
    const cid = await ipfs.add(enc.encode("hello world\n"));
    const res = await fetch(`${server.url}/api/v0/block/get?arg=${cid}`, { method: "POST" });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(await ipfs.getBlock(cid));
  });
});

function multipartInit(text: string): { body: string; headers: Record<string, string> } {
  const { body, contentType } = multipart([{ field: "file", filename: "x", body: text }]);
  return { body, headers: { "content-type": contentType } };
}

describe("IPFS RPC: graph-cli's client (kubo-rpc-client) works unmodified", () => {
  it("addAll + pin.add + cat as graph-cli's compiler and deploy command call them", async () => {
    const client = createKuboClient({ url: server.url });
    // graph-cli uploads each file as addAll([{path, content}]) and takes the first result.
    const results = [];
    for await (const r of client.addAll(DIRECTORY.files.map((f) => ({ path: f.path, content: enc.encode(f.text) })))) results.push(r);
    expect(results.map((r) => r.path)).toEqual(["test_current_dir/hey", "test_current_dir/hello/world", "test_current_dir/hello", "test_current_dir"]);
    expect(results.at(-1)?.cid.toString()).toBe(DIRECTORY.rootCid);
    const pinned = await client.pin.add(results[0]!.cid);
    expect(pinned.toString()).toBe(results[0]!.cid.toString());
    let text = "";
    for await (const chunk of client.cat(`${DIRECTORY.rootCid}/hello/world`)) text += Buffer.from(chunk).toString("utf8");
    expect(text).toBe("World\n");
    expect((await client.version()).version).toBe("0.0.0-local-node");
  });
});
