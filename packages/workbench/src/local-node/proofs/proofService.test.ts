// The proof follows the data: journal entries committed with their blocks, hashed later, must leave the
// digests that hashing each block at once leaves (computed here with the hasher itself, block by block),
// through a revert, a restart of the store and a graft.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { TEST_SCHEMA, account, block } from "../store/_test/fixtures.js";
import { BlockPoiRecorder, encodeJournalEntry, hashBlockRecord, joinDigests, type PoiVersion } from "../poi/index.js";
import { createProofService, type ProofService } from "./index.js";

const REGION = "ethereum/localhost";
const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString("hex") : null);

/** A block whose handler wrote one Account: its journal entry and its own hashed stream. */
function recorded(n: number, version: PoiVersion, name = "A") {
  const poi = new BlockPoiRecorder(n);
  poi.startHandler(REGION);
  poi.write(REGION, { kind: "SetEntity", entityType: "Account", id: `a${n}`, data: account(`a${n}`, name, BigInt(n)) });
  const record = poi.record();
  return { entry: encodeJournalEntry({ version, record }), own: hashBlockRecord(record, version)[0]!.own };
}

/** The digest after each of `blocks`, joined at once, block by block. */
function expectedDigests(blocks: number[], version: PoiVersion, previous: Uint8Array | null = null, name = "A"): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  for (const n of blocks) out.set(n, (previous = joinDigests(version, previous, recorded(n, version, name).own)));
  return out;
}

async function commit(store: NodeStore, id: string, blocks: number[], version: PoiVersion, name = "A"): Promise<void> {
  await store.transactBlocks(id, blocks.map((n) => ({ block: block(n), changes: [], poiJournal: { entry: recorded(n, version, name).entry, regions: [REGION] } })));
}

const digestAt = async (store: NodeStore, id: string, n: number) => hex((await store.poiDigests(id, n))[0]?.digest);

describe("the proof-of-indexing journal, caught up", () => {
  const open: { store: NodeStore; proofs: ProofService }[] = [];
  const dirs: string[] = [];
  async function start(dataDir?: string, options: { backgroundDelayMs?: number } = {}) {
    const store = await createNodeStore(dataDir ? { dataDir } : {});
    const proofs = createProofService({ store, log: () => {}, chunk: 2, ...options });
    open.push({ store, proofs });
    return { store, proofs };
  }
  afterEach(async () => {
    for (const { store, proofs } of open.splice(0)) {
      await proofs.close();
      await store.close();
    }
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  for (const version of ["legacy", "fast"] as const) {
    it(`leaves the digests of hashing at once, through the block asked for and then all (${version})`, async () => {
      const { store, proofs } = await start();
      await store.createDeployment({ id: "QmJ", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
      await commit(store, "QmJ", [2, 3, 5, 6, 8], version);
      const want = expectedDigests([2, 3, 5, 6, 8], version);
      expect(await digestAt(store, "QmJ", 8)).toBeNull();
      // The region's digest counts as an entity from its first block on, hashed or not (as graph-node counts it).
      expect([await store.entityCount("QmJ", 1), await store.entityCount("QmJ", 2), await store.entityCount("QmJ", 8)]).toEqual([0, 1, 1]);
      await proofs.catchUp("QmJ", 3);
      expect(await digestAt(store, "QmJ", 3)).toBe(hex(want.get(3)));
      expect(await digestAt(store, "QmJ", 2)).toBe(hex(want.get(2)));
      await proofs.catchUp("QmJ");
      for (const n of [2, 3, 5, 6, 8]) expect(await digestAt(store, "QmJ", n)).toBe(hex(want.get(n)));
      // A block with no entry keeps the digest before it.
      expect(await digestAt(store, "QmJ", 7)).toBe(hex(want.get(6)));
      expect(await store.poiJournal("QmJ", { rows: 10, bytes: 2 ** 20 })).toEqual([]);
      expect([await store.entityCount("QmJ", 1), await store.entityCount("QmJ", 2), await store.entityCount("QmJ", 8)]).toEqual([0, 1, 1]);
    });
  }

  it("forgets the reverted blocks' entries, and joins the re-indexed ones to the digest before them", async () => {
    const { store, proofs } = await start();
    await store.createDeployment({ id: "QmR", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await commit(store, "QmR", [2, 3], "legacy");
    await proofs.catchUp("QmR", 2);
    await commit(store, "QmR", [4, 5], "legacy");
    await store.revertTo("QmR", { ...block(3), timestamp: 3, parentHash: block(2).hash });
    await commit(store, "QmR", [4, 5], "legacy", "B");
    await proofs.catchUp("QmR");
    const before = expectedDigests([2, 3], "legacy");
    const after = expectedDigests([4, 5], "legacy", before.get(3)!, "B");
    expect(await digestAt(store, "QmR", 3)).toBe(hex(before.get(3)));
    expect(await digestAt(store, "QmR", 5)).toBe(hex(after.get(5)));
  });

  it("keeps the entries across a restart of the store", async () => {
    const dir = await mkdtemp(join(tmpdir(), "poi-journal-"));
    dirs.push(dir);
    const first = await start(dir);
    await first.store.createDeployment({ id: "QmS", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await commit(first.store, "QmS", [2, 3, 4], "legacy");
    await first.proofs.catchUp("QmS", 2);
    await first.proofs.close();
    await first.store.close();
    open.splice(0);
    const second = await start(dir);
    await second.proofs.catchUp("QmS");
    expect(await digestAt(second.store, "QmS", 4)).toBe(hex(expectedDigests([2, 3, 4], "legacy").get(4)));
  });

  it("gives a graft the base's entries up to the graft block", async () => {
    const { store, proofs } = await start();
    await store.createDeployment({ id: "QmBase", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await commit(store, "QmBase", [2, 3, 4, 5], "legacy");
    await proofs.catchUp("QmBase", 2);
    await store.createDeployment({ id: "QmGraft", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m", graft: { base: "QmBase", block: block(4) } });
    await commit(store, "QmGraft", [5], "legacy", "G");
    await proofs.catchUp("QmGraft");
    const base = expectedDigests([2, 3, 4], "legacy");
    expect(await digestAt(store, "QmGraft", 4)).toBe(hex(base.get(4)));
    expect(await digestAt(store, "QmGraft", 5)).toBe(hex(expectedDigests([5], "legacy", base.get(4)!, "G").get(5)));
    // The base's own journal is untouched by the graft.
    await proofs.catchUp("QmBase");
    expect(await digestAt(store, "QmBase", 5)).toBe(hex(expectedDigests([2, 3, 4, 5], "legacy").get(5)));
  });

  it("ends at close without waiting for the hashing under way, and a later catch-up goes on from where it stopped", async () => {
    const { store } = await start();
    await store.createDeployment({ id: "QmC", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    // Blocks of 3,000 events: hashing one takes a few hundred milliseconds.
    const big = (n: number) => {
      const poi = new BlockPoiRecorder(n);
      poi.startHandler(REGION);
      for (let i = 0; i < 3000; i++) poi.write(REGION, { kind: "SetEntity", entityType: "Account", id: `a${n}-${i}`, data: account(`a${n}-${i}`, "A", BigInt(i)) });
      const record = poi.record();
      return { entry: encodeJournalEntry({ version: "legacy", record }), own: hashBlockRecord(record, "legacy")[0]!.own };
    };
    const blocks = [2, 3, 4, 5, 6, 7];
    const made = new Map(blocks.map((n) => [n, big(n)]));
    await store.transactBlocks("QmC", blocks.map((n) => ({ block: block(n), changes: [], poiJournal: { entry: made.get(n)!.entry, regions: [REGION] } })));
    let previous: Uint8Array | null = null;
    const want = new Map(blocks.map((n) => [n, (previous = joinDigests("legacy", previous, made.get(n)!.own))]));
    // Two entries per read by count, one by bytes (an entry is far more than 1,000 bytes).
    expect((await store.poiJournal("QmC", { rows: 2, bytes: 2 ** 30 })).map((r) => r.block)).toEqual([2, 3]);
    expect((await store.poiJournal("QmC", { rows: 2, bytes: 1000 })).map((r) => r.block)).toEqual([2]);
    const first = createProofService({ store, log: () => {}, chunk: 2 });
    const running = first.catchUp("QmC").catch(() => "stopped");
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await first.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await running;
    // Whatever was written is right, and what was not is still journaled.
    const left = (await store.poiJournal("QmC", { rows: 10, bytes: 2 ** 30 })).map((r) => r.block);
    const done = blocks.filter((n) => !left.includes(n));
    expect([...done, ...left]).toEqual(blocks);
    for (const n of done) expect(await digestAt(store, "QmC", n)).toBe(hex(want.get(n)));
    const second = createProofService({ store, log: () => {} });
    await second.catchUp("QmC");
    await second.close();
    for (const n of blocks) expect(await digestAt(store, "QmC", n)).toBe(hex(want.get(n)));
  });

  it("starts a background catch-up only after its delay, while a proof asked for meanwhile is hashed at once", async () => {
    const { store, proofs } = await start(undefined, { backgroundDelayMs: 1_000 });
    await store.createDeployment({ id: "QmSoon", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await commit(store, "QmSoon", [2, 3, 4, 5], "legacy");
    const want = expectedDigests([2, 3, 4, 5], "legacy");
    const asked = Date.now();
    proofs.catchUpSoon("QmSoon");
    proofs.catchUpSoon("QmSoon");
    await proofs.catchUp("QmSoon", 3);
    // The on-demand catch-up hashed through block 3 only; the background one has not started yet.
    const left = (await store.poiJournal("QmSoon", { rows: 10, bytes: 2 ** 20 })).map((r) => r.block);
    if (Date.now() - asked < 1_000) expect(left).toEqual([4, 5]);
    expect(await digestAt(store, "QmSoon", 3)).toBe(hex(want.get(3)));
    for (let waited = 0; (await store.poiJournal("QmSoon", { rows: 10, bytes: 2 ** 20 })).length > 0; waited += 50) {
      if (waited > 20_000) throw new Error("the background catch-up never ran");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Date.now() - asked).toBeGreaterThanOrEqual(1_000);
    for (const n of [2, 3, 4, 5]) expect(await digestAt(store, "QmSoon", n)).toBe(hex(want.get(n)));
  });

  it("refuses bytes that are no journal entry, naming it, and leaves the journal as it was", async () => {
    const { store, proofs } = await start();
    await store.createDeployment({ id: "QmBad", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await store.transactBlocks("QmBad", [{ block: block(2), changes: [], poiJournal: { entry: new Uint8Array([1, 2, 3]), regions: [REGION] } }]);
    await expect(proofs.catchUp("QmBad")).rejects.toThrow(/proof-of-indexing hasher: not a proof-of-indexing journal entry/);
    expect((await store.poiJournal("QmBad", { rows: 10, bytes: 2 ** 20 })).map((r) => r.block)).toEqual([2]);
  });
});
