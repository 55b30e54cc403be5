// The proof-of-indexing hashers against graph-node's own expected values (the `online_vs_reference`
// cases in graph/src/components/subgraph/proof_of_indexing/mod.rs): the same events streamed block by
// block, digests joined per region, then finished, must give graph-node's bytes for both hashers.
import { describe, expect, it } from "vitest";
import type { EntityData } from "../../wasm-host/index.js";
import { BlockPoiRecorder, finishPoi, hashBlockRecord, joinDigests, poiVersionOf, type PoiEvent, type PoiVersion } from "./index.js";

const repeat = (byte: number, n: number) => new Uint8Array(n).fill(byte);
const data: EntityData = new Map([
  ["id", { kind: "String", value: "id" }],
  ["val", { kind: "Int", value: 1 }],
]);
const dataEmpty: EntityData = new Map([["id", { kind: "String", value: "id" }]]);
const data2: EntityData = new Map([
  ["id", { kind: "String", value: "id" }],
  ["key", { kind: "String", value: "s" }],
  ["null", { kind: "Null" }],
]);
const set = (entityType: string, d: EntityData): PoiEvent => ({ kind: "SetEntity", entityType, id: "id", data: d });

interface Case {
  name: string;
  legacy: string;
  fast: string;
  deployment: string;
  hashByte: number;
  indexer: Uint8Array | null;
  /** Per region, the events of each block (block i = index i). */
  regions: Record<string, PoiEvent[][]>;
}

const cases: Case[] = [
  { name: "genesis", legacy: "401e5bef572bc3a56b0ced0eb6cb4619d2ca748db6af8855828d16ff3446cfdd", fast: "dced49c45eac68e8b3d8f857928e7be6c270f2db8b56b0d7f27ce725100bae01", deployment: "test", hashByte: 1, indexer: null, regions: {} },
  {
    name: "one_event",
    legacy: "96640d7a35405524bb21da8d86f7a51140634f44568cf9f7df439d0b2b01a435",
    fast: "8bb3373fb55e02bde3202bac0eeecf1bd9a676856a4dd6667bd809aceda41885",
    deployment: "test",
    hashByte: 1,
    indexer: repeat(1, 20),
    regions: { eth: [[], [set("t", dataEmpty)]] },
  },
  {
    name: "multiple_blocks",
    legacy: "a0346ee0d7e0518f73098b6f9dc020f1cf564fb88e09779abfdf5da736de5e82",
    fast: "8b0097ad96b21f7e4bd8dcc41985e6e5506b808f1185016ab1073dd8745238ce",
    deployment: "b",
    hashByte: 3,
    indexer: repeat(1, 20),
    regions: { eth: [[], [set("type", data)], [], [set("type", dataEmpty)], []] },
  },
  {
    name: "causality_regions",
    legacy: "cc9449860e5b19b76aa39d6e05c5a560d1cb37a93d4bf64669feb47cfeb452fa",
    fast: "2041af28678e68406247a5cfb5fe336947da75256c79b35c2f61fc7985091c0e",
    deployment: "b",
    hashByte: 3,
    indexer: repeat(1, 20),
    regions: {
      eth: [[], [set("type", data2)], [], [{ kind: "RemoveEntity", entityType: "type", id: "id" }], []],
      ipfs: [[], [set("type", data)], [], [set("type", data)], []],
    },
  },
  {
    name: "data",
    legacy: "d304672a249293ee928d99d9cb0576403bdc4b6dbadeb49b98f527277297cdcc",
    fast: "421ef30a03be64014b9eef2b999795dcabfc601368040df855635e7886eb3822",
    deployment: "test",
    hashByte: 1,
    indexer: repeat(4, 20),
    regions: { eth: [[], [set("type", data)]] },
  },
];

function online(c: Case, version: PoiVersion): string {
  const digests = new Map<string, Uint8Array>();
  const blockCount = Object.values(c.regions)[0]?.length ?? 1;
  for (let block = 0; block < blockCount; block++) {
    const poi = new BlockPoiRecorder(block);
    for (const [name, blocks] of Object.entries(c.regions)) for (const e of blocks[block]!) poi.write(name, e);
    for (const { name, own } of hashBlockRecord(poi.record(), version)) digests.set(name, joinDigests(version, digests.get(name) ?? null, own));
  }
  const proof = finishPoi({
    deployment: c.deployment,
    block: { number: blockCount - 1, hash: repeat(c.hashByte, 32) },
    indexer: c.indexer,
    regions: [...digests].map(([name, digest]) => ({ name, digest })),
    version,
  });
  return Buffer.from(proof).toString("hex");
}

describe("proof of indexing: graph-node's reference cases", () => {
  for (const c of cases) {
    it(`${c.name}, legacy hasher`, () => expect(online(c, "legacy")).toBe(c.legacy));
    it(`${c.name}, fast hasher`, () => expect(online(c, "fast")).toBe(c.fast));
  }
});

describe("poiVersionOf", () => {
  it("uses the fast hasher from specVersion 0.0.6 on", () => {
    expect(poiVersionOf("0.0.5")).toBe("legacy");
    expect(poiVersionOf("0.0.4")).toBe("legacy");
    expect(poiVersionOf("0.0.6")).toBe("fast");
    expect(poiVersionOf("1.3.0")).toBe("fast");
  });
});
