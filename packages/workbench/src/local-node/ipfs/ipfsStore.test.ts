import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dagPb from "@ipld/dag-pb";
import { CID } from "multiformats/cid";
import { afterEach, describe, expect, it } from "vitest";
import { DIRECTORY, MULTI_CHUNK, SMALL_FILES, kuboDeterministicBytes } from "./_test/kuboFixtures.js";
import { IpfsNotFoundError, IpfsPathError } from "./errors.js";
import { createIpfsStore } from "./ipfsStore.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ipfs-store-"));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("createIpfsStore: CIDs equal Kubo's", () => {
  it.each(SMALL_FILES)("adds $text.length bytes as $cid", async ({ text, cid }) => {
    const ipfs = await createIpfsStore();
    expect(await ipfs.add(enc.encode(text))).toBe(cid);
    expect(dec.decode((await ipfs.cat(cid))!)).toBe(text);
  });

  it.each(MULTI_CHUNK)("adds a $size-byte file (multi-chunk, balanced) as $cid", async ({ seed, size, cid, rootLinks }) => {
    const ipfs = await createIpfsStore();
    const bytes = kuboDeterministicBytes(seed, size);
    expect(await ipfs.add(bytes)).toBe(cid);
    const root = dagPb.decode((await ipfs.getBlock(cid))!);
    expect(root.Links).toHaveLength(rootLinks);
    const back = ipfs.catSync(`/ipfs/${cid}`);
    expect(back?.length).toBe(size);
    expect(Buffer.compare(Buffer.from(back!), Buffer.from(bytes))).toBe(0);
  });

  it("adds paths with directories like Kubo: files first, then directories bottom-up", async () => {
    const ipfs = await createIpfsStore();
    const entries = await ipfs.addAll(DIRECTORY.files.map((f) => ({ path: f.path, content: enc.encode(f.text) })));
    expect(entries.map((e) => e.name)).toEqual([
      "test_current_dir/hey",
      "test_current_dir/hello/world",
      "test_current_dir/hello",
      "test_current_dir",
    ]);
    expect(entries.at(-1)?.cid).toBe(DIRECTORY.rootCid);
    // Each file's CID is the CID of its bytes alone.
    expect(entries[0]?.cid).toBe(await (await createIpfsStore()).add(enc.encode("Hey\n")));
    expect(dec.decode((await ipfs.cat(`/ipfs/${DIRECTORY.rootCid}/hello/world`))!)).toBe("World\n");
  });

  it("reports Kubo's cumulative Size (block bytes including framing)", async () => {
    const ipfs = await createIpfsStore();
    const [entry] = await ipfs.addAll([{ path: "hello.txt", content: enc.encode("hello world\n") }]);
    // 12 bytes of content in a UnixFS file node inside a dag-pb node = 20 bytes, as `ipfs add` prints.
    expect(entry).toEqual({ name: "hello.txt", cid: "QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o", size: 20 });
  });
});

describe("createIpfsStore: reading", () => {
  it("answers null for content it does not hold, and errors for malformed paths and directories", async () => {
    const ipfs = await createIpfsStore();
    expect(await ipfs.cat("QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH")).toBeNull();
    expect(await ipfs.getBlock("QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH")).toBeNull();
    await expect(ipfs.cat("not-a-cid")).rejects.toBeInstanceOf(IpfsPathError);
    await ipfs.addAll(DIRECTORY.files.map((f) => ({ path: f.path, content: enc.encode(f.text) })));
    await expect(ipfs.cat(DIRECTORY.rootCid)).rejects.toThrow("this dag node is a directory");
    await expect(ipfs.cat(`${DIRECTORY.rootCid}/missing`)).rejects.toThrow('no link named "missing"');
  });

  it("finds a CIDv0 block by its CIDv1 form too (blocks are keyed by multihash)", async () => {
    const ipfs = await createIpfsStore();
    const cid = await ipfs.add(enc.encode("hello world\n"));
    const v1 = CID.parse(cid).toV1().toString();
    expect(dec.decode((await ipfs.cat(v1))!)).toBe("hello world\n");
  });

  it("computes CIDs without storing anything for onlyHash (Kubo's only-hash)", async () => {
    const ipfs = await createIpfsStore();
    const [entry] = await ipfs.addAll([{ path: "h.txt", content: enc.encode("Hello Worlds!\n") }], { onlyHash: true });
    expect(entry?.cid).toBe("QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH");
    expect(await ipfs.has(entry!.cid)).toBe(false);
    expect(await ipfs.isPinned(entry!.cid)).toBe(false);
  });

  it("pins only what it holds", async () => {
    const ipfs = await createIpfsStore();
    await expect(ipfs.pin("QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH")).rejects.toBeInstanceOf(IpfsNotFoundError);
    const cid = (await ipfs.addAll([{ path: "a", content: enc.encode("IPFS\n") }], { pin: false }))[0]!.cid;
    expect(await ipfs.isPinned(cid)).toBe(false);
    await ipfs.pin(cid);
    expect(await ipfs.isPinned(cid)).toBe(true);
  });
});

describe("createIpfsStore: persistence", () => {
  it("keeps blocks and pins on disk across a restart", async () => {
    const dir = await tempDir();
    const first = await createIpfsStore({ dir });
    const cid = await first.add(enc.encode("Hello Worlds!\n"));
    await first.close();
    await expect(first.cat(cid)).rejects.toThrow("closed");
    expect((await readdir(join(dir, "blocks"))).length).toBeGreaterThan(0);

    const second = await createIpfsStore({ dir });
    expect(dec.decode((await second.cat(cid))!)).toBe("Hello Worlds!\n");
    expect(await second.isPinned(cid)).toBe(true);
    expect(await second.has(cid)).toBe(true);
  });
});
