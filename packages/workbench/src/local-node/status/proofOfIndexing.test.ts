// The status API's proofs of indexing around the digests: which block a proof is for (a failed
// deployment's, none past the pointer), the arguments checked, the public variant. That the digests and
// the finished proofs equal graph-node's is the parity suite's part (parity/proofOfIndexing.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeStore } from "../store/nodeStore.js";
import { createDatabase } from "../store/database.js";
import type { EntityChange, NodeStore } from "../store/types.js";
import { TEST_SCHEMA, account, block } from "../store/_test/fixtures.js";
import { BlockPoiRecorder, encodeJournalEntry, finishPoi, hashBlockRecord, joinDigests } from "../poi/index.js";
import { createProofService, type ProofService } from "../proofs/index.js";
import { createStatusService } from "./statusServer.js";
import { execute, parse } from "graphql";

const DEP = "QmPoiStatus";
const REGION = "ethereum/localhost";
const hashOf = (n: number) => new Uint8Array(Buffer.from(block(n).hash.slice(2), "hex"));

/** The `Poi$` change a block with one Account write leaves, given the region's digest before it. */
function poiChange(n: number, previous: Uint8Array | null): { change: EntityChange; digest: Uint8Array; entry: Uint8Array } {
  const poi = new BlockPoiRecorder(n);
  poi.startHandler(REGION);
  poi.write(REGION, { kind: "SetEntity", entityType: "Account", id: `a${n}`, data: account(`a${n}`, "A", BigInt(n)) });
  const digest = joinDigests("legacy", previous, hashBlockRecord(poi.record(), "legacy")[0]!.own);
  return { digest, entry: encodeJournalEntry({ version: "legacy", record: poi.record() }), change: { op: "set", entityType: "Poi$", id: REGION, data: new Map([["id", { kind: "String", value: REGION }], ["digest", { kind: "Bytes", value: digest }]]) } };
}

describe("proofOfIndexing in the status API", () => {
  let store: NodeStore;
  let proofs: ProofService;
  let ask: (query: string) => Promise<{ data?: Record<string, unknown> | null; errors?: { message: string }[] }>;
  const digests = new Map<number, Uint8Array>();

  beforeAll(async () => {
    store = await createNodeStore({});
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "specVersion: 0.0.5\n" });
    let previous: Uint8Array | null = null;
    for (const n of [2, 3]) {
      const { change, digest } = poiChange(n, previous);
      await store.transact(DEP, block(n), [change]);
      digests.set(n, (previous = digest));
    }
    proofs = createProofService({ store, log: () => {} });
    const service = createStatusService({ store, chainHead: async () => block(10), proofsThrough: (id, n) => proofs.catchUp(id, n) });
    ask = async (query) => {
      const r = await execute({ schema: service.schema, document: parse(query), rootValue: service.root });
      return JSON.parse(JSON.stringify(r)) as { data?: Record<string, unknown> | null; errors?: { message: string }[] };
    };
  });
  afterAll(async () => {
    await proofs.close();
    await store.close();
  });

  const proofAt = (n: number, indexer: Uint8Array | null = null) =>
    `0x${Buffer.from(finishPoi({ deployment: DEP, block: { number: n, hash: hashOf(n) }, indexer, regions: [{ name: REGION, digest: digests.get(n)! }], version: "legacy" })).toString("hex")}`;
  const poiQuery = (n: number, extra = "") => `{ p: proofOfIndexing(subgraph: "${DEP}", blockNumber: ${n}, blockHash: "${block(n).hash}"${extra}) }`;

  it("finishes the digests stored as of the block, with the indexer when one is named", async () => {
    expect((await ask(poiQuery(2))).data?.p).toBe(proofAt(2));
    expect((await ask(poiQuery(3))).data?.p).toBe(proofAt(3));
    const indexer = `0x${"ab".repeat(20)}`;
    expect((await ask(poiQuery(3, `, indexer: "${indexer}"`))).data?.p).toBe(proofAt(3, new Uint8Array(20).fill(0xab)));
    expect(proofAt(3, new Uint8Array(20).fill(0xab))).not.toBe(proofAt(3));
  });

  it("answers null past the pointer of a healthy deployment, and for an unknown one", async () => {
    expect((await ask(poiQuery(4))).data?.p).toBeNull();
    expect((await ask(`{ p: proofOfIndexing(subgraph: "QmNone", blockNumber: 2, blockHash: "${block(2).hash}") }`)).data?.p).toBeNull();
  });

  it("refuses a block hash or an indexer that is no hex of the right length, naming it", async () => {
    const badHash = await ask(`{ p: proofOfIndexing(subgraph: "${DEP}", blockNumber: 2, blockHash: "0xzz") }`);
    expect(badHash.errors?.[0]?.message).toMatch(/blockHash must be some bytes as 0x hex, got "0xzz"/);
    const shortIndexer = await ask(poiQuery(2, ', indexer: "0x1234"'));
    expect(shortIndexer.errors?.[0]?.message).toMatch(/indexer must be 20 bytes as 0x hex/);
  });

  it("signs public proofs with the zero address at the block hash recorded for the number, ten at most", async () => {
    const r = await ask(`{ p: publicProofsOfIndexing(requests: [{ deployment: "${DEP}", blockNumber: "3" }]) { deployment block { number hash } proofOfIndexing } }`);
    expect(r.data?.p).toEqual([{ deployment: DEP, block: { number: "3", hash: block(3).hash.slice(2) }, proofOfIndexing: proofAt(3, new Uint8Array(20)) }]);
    const many = Array.from({ length: 11 }, () => `{ deployment: "${DEP}", blockNumber: "3" }`).join(", ");
    expect((await ask(`{ p: publicProofsOfIndexing(requests: [${many}]) { deployment } }`)).errors?.[0]?.message).toMatch(/at most 10 requests at a time, got 11/);
  });

  it("answers a deterministically failed deployment's later blocks with its failure block's proof", async () => {
    // The failed block's events are kept in the journal, hashed when a proof is asked for.
    const { entry, digest } = poiChange(4, digests.get(3)!);
    await store.markFailed(DEP, { message: "boom", block: block(4), handler: "handleApproval", deterministic: true }, { entry, regions: [REGION] });
    digests.set(4, digest);
    expect((await ask(poiQuery(4))).data?.p).toBe(proofAt(4));
    // Asked about block 9 (hash and all), the proof is block 4's.
    expect((await ask(poiQuery(9))).data?.p).toBe(proofAt(4));
    expect((await ask(poiQuery(3))).data?.p).toBe(proofAt(3));
  });
});

describe("the proof-of-indexing table", () => {
  it("is added to a deployment made before the store kept one, when the store opens", async () => {
    const dir = await mkdtemp(join(tmpdir(), "poi-table-"));
    try {
      const first = await createNodeStore({ dataDir: dir });
      await first.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
      const schema = (await first.getDeployment(DEP))!.schemaName;
      await first.transact(DEP, block(2), []);
      await first.close();
      // As a data folder from before: no poi2$ table.
      const db = await createDatabase({ dataDir: dir });
      await db.exec(`drop table "${schema}"."poi2$"`);
      await db.close();
      const reopened = await createNodeStore({ dataDir: dir });
      expect(await reopened.poiDigests(DEP, 2)).toEqual([]);
      await reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
