// The file reader behind file data sources: the node's own IPFS first, then a named IPFS node (a
// second IPFS server of this project on loopback, speaking the same RPC as Kubo), within a size limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIpfsServer, createIpfsStore, type IpfsStore, type RunningServer } from "./ipfs/index.js";
import { createFileReader } from "./dataSourceFiles.js";

let own: IpfsStore;
let remoteStore: IpfsStore;
let remote: RunningServer;
const logs: string[] = [];
const log = (level: string, message: string) => void logs.push(`${level}: ${message}`);
const text = (s: string) => new TextEncoder().encode(s);

beforeAll(async () => {
  own = await createIpfsStore();
  remoteStore = await createIpfsStore();
  remote = await createIpfsServer({ ipfs: remoteStore, port: 0 });
});
afterAll(async () => {
  await remote?.close();
  await own?.close();
  await remoteStore?.close();
});

describe("createFileReader", () => {
  it("reads the node's own IPFS first, then the named IPFS node; a file in neither is not there yet", async () => {
    const mine = await own.add(text("mine"));
    const theirs = await remoteStore.add(text("theirs"));
    const elsewhere = await createIpfsStore();
    const missing = await elsewhere.add(text("nowhere"));
    await elsewhere.close();
    const read = createFileReader({ ipfs: own, fallbackUrl: remote.url, log });
    expect(new TextDecoder().decode((await read(mine))!)).toBe("mine");
    expect(new TextDecoder().decode((await read(theirs))!)).toBe("theirs");
    expect(await read(missing)).toBeNull();
    // Without a named node, only the node's own files.
    expect(await createFileReader({ ipfs: own, log })(theirs)).toBeNull();
  });

  it("refuses a file over the limit, from either side, saying so", async () => {
    const big = "x".repeat(2048);
    const mine = await own.add(text(big));
    const theirs = await remoteStore.add(text(`${big}!`));
    const read = createFileReader({ ipfs: own, fallbackUrl: remote.url, maxBytes: 1024, log });
    logs.length = 0;
    expect(await read(mine)).toBeNull();
    expect(await read(theirs)).toBeNull();
    expect(logs.filter((l) => l.includes("more than the 1024 a file data source may read"))).toHaveLength(2);
  });

  it("treats an IPFS node that does not answer as no file (looked for again later)", async () => {
    const read = createFileReader({ ipfs: own, fallbackUrl: "http://127.0.0.1:9", log, timeoutMs: 2_000 });
    expect(await read(await remoteStore.add(text("unreachable")))).toBeNull();
  });
});
