// The journal entry's bytes give back the record they were made from, every value kind and the fields'
// order included, and bytes that are no entry are refused.
import { describe, expect, it } from "vitest";
import { serialize } from "node:v8";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { StoreValue } from "../../wasm-host/index.js";
import type { BlockPoiRecord } from "./blockStream.js";
import { decodeJournalEntry, encodeJournalEntry, JournalRecorder } from "./journal.js";
import { BlockPoiRecorder, hashBlockRecord } from "./index.js";

const ID1 = `0x${"ab".repeat(32)}-1`;
const ID2 = `0x${"cd".repeat(32)}-2`;

const values: [string, StoreValue][] = [
  ["id", { kind: "String", value: ID1 }],
  ["text", { kind: "String", value: "ü 🚀 \u0000 end" }],
  ["zero", { kind: "Int", value: 0 }],
  ["negative", { kind: "Int", value: -2147483648 }],
  ["positive", { kind: "Int", value: 2147483647 }],
  ["ratio", { kind: "BigDecimal", value: "-1.25e-30" }],
  ["yes", { kind: "Bool", value: true }],
  ["no", { kind: "Bool", value: false }],
  ["nothing", { kind: "Null" }],
  ["empty", { kind: "Bytes", value: new Uint8Array(0) }],
  ["bytes", { kind: "Bytes", value: Uint8Array.from([0, 1, 255, 128]) }],
  ["big", { kind: "BigInt", value: -(2n ** 255n) }],
  ["bigZero", { kind: "BigInt", value: 0n }],
  ["bigWord", { kind: "BigInt", value: 2n ** 64n - 1n }],
  ["bigPastWord", { kind: "BigInt", value: 2n ** 64n }],
  ["negativeWord", { kind: "BigInt", value: -(2n ** 64n - 1n) }],
  ["negativePastWord", { kind: "BigInt", value: -(2n ** 64n) }],
  ["long", { kind: "String", value: "x".repeat(200) + "é".repeat(20000) }],
  ["longBytes", { kind: "Bytes", value: Uint8Array.from({ length: 70000 }, (_, i) => i % 251) }],
  ["int8", { kind: "Int8", value: 2n ** 63n - 1n }],
  ["int8Low", { kind: "Int8", value: -(2n ** 63n) }],
  ["at", { kind: "Timestamp", value: 1_700_000_000_000_123n }],
  ["list", { kind: "Array", value: [{ kind: "String", value: "a" }, { kind: "Array", value: [{ kind: "Null" }, { kind: "Int", value: -5 }] }, { kind: "Array", value: [] }] }],
];

const record: BlockPoiRecord = {
  block: 2 ** 31 + 5,
  regions: [
    {
      name: "ethereum/localhost",
      events: [
        { kind: "SetEntity", entityType: "Thing", id: ID1, data: new Map(values) },
        { kind: "SetEntity", entityType: "Thing", id: ID2, data: new Map([["id", { kind: "String", value: ID2 }], ["zero", { kind: "Int", value: 7 }], ["other", { kind: "String", value: ID1 }]]) },
        { kind: "RemoveEntity", entityType: "Thing", id: ID1 },
        { kind: "DeterministicError", redactedEvents: 300 },
      ],
    },
    { name: "file/1", events: [] },
  ],
};

describe("proof-of-indexing journal entries", () => {
  it("give back the record, field order and every value kind included", () => {
    for (const version of ["legacy", "fast"] as const) {
      const bytes = encodeJournalEntry({ version, record });
      expect(decodeJournalEntry(bytes)).toEqual({ version, record });
      // Hashed from the bytes, the proof is the record's own.
      const decoded = decodeJournalEntry(bytes);
      expect(hashBlockRecord(decoded.record, version)).toEqual(hashBlockRecord(record, version));
    }
  });

  it("come the same from the recorder that writes them as the handlers run", () => {
    const [region] = record.regions;
    const recorder = new JournalRecorder("fast");
    // A block before, so that the writers are reused.
    recorder.begin(1);
    recorder.startHandler("ethereum/localhost");
    recorder.write("ethereum/localhost", { op: "remove", entityType: "Other", id: "gone" });
    expect(decodeJournalEntry(recorder.finish()!.entry).record.block).toBe(1);

    recorder.begin(record.block);
    const events = new BlockPoiRecorder(record.block);
    for (const e of region!.events) {
      if (e.kind === "DeterministicError") {
        recorder.writeDeterministicError(region!.name);
        events.writeDeterministicError(region!.name);
        continue;
      }
      recorder.startHandler(region!.name);
      events.startHandler(region!.name);
      recorder.write(region!.name, e.kind === "SetEntity" ? { op: "set", entityType: e.entityType, id: e.id, data: e.data } : { op: "remove", entityType: e.entityType, id: e.id });
      events.write(region!.name, e);
    }
    recorder.startHandler("file/1");
    events.startHandler("file/1");
    const finished = recorder.finish()!;
    expect(finished.regions).toEqual(["ethereum/localhost", "file/1"]);
    const expected = events.record();
    expect(expected.regions[0]!.events.at(-1)).toEqual({ kind: "DeterministicError", redactedEvents: 1 });
    expect(decodeJournalEntry(finished.entry)).toEqual({ version: "fast", record: expected });

    // A block without triggers has no entry.
    recorder.begin(record.block + 1);
    expect(recorder.finish()).toBeNull();

    // A block larger than the writers are kept for, then a small one: both read back whole.
    const big = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 7) % 256);
    recorder.begin(10);
    recorder.startHandler("r");
    recorder.write("r", { op: "set", entityType: "Blob", id: "b", data: new Map([["id", { kind: "String", value: "b" }], ["data", { kind: "Bytes", value: big }]]) });
    const bigEntry = decodeJournalEntry(recorder.finish()!.entry);
    const bigEvent = bigEntry.record.regions[0]!.events[0] as { kind: string; data: Map<string, { kind: string; value: Uint8Array }> };
    expect(bigEvent.kind).toBe("SetEntity");
    // Compared as a whole: element by element, 3 MiB takes the matcher seconds.
    expect(Buffer.from(bigEvent.data.get("data")!.value).equals(big)).toBe(true);
    recorder.begin(11);
    recorder.startHandler("r");
    recorder.write("r", { op: "remove", entityType: "Blob", id: "b" });
    expect(decodeJournalEntry(recorder.finish()!.entry)).toEqual({ version: "fast", record: { block: 11, regions: [{ name: "r", events: [{ kind: "RemoveEntity", entityType: "Blob", id: "b" }] }] } });
  });

  it("written by V8's serializer (data folders from before the codec) still read", () => {
    const old = deflateRawSync(serialize({ version: "legacy", record }), { level: 1 });
    const decoded = decodeJournalEntry(old);
    expect(decoded).toEqual({ version: "legacy", record });
    expect(hashBlockRecord(decoded.record, "legacy")).toEqual(hashBlockRecord(record, "legacy"));
  });

  it("refuse bytes that are no entry", () => {
    const bytes = encodeJournalEntry({ version: "legacy", record });
    expect(() => decodeJournalEntry(bytes.subarray(0, bytes.length - 3))).toThrow("not a proof-of-indexing journal entry");
    // Well-formed deflate of bytes that are no entry.
    expect(() => decodeJournalEntry(deflateRawSync(serialize({ version: "fast" })))).toThrow("not a proof-of-indexing journal entry");
    // In this format: cut short, with bytes after its end, with an unknown value kind, with a string
    // referred to before it was written.
    const inflated = inflateRawSync(bytes);
    for (const broken of [inflated.subarray(0, inflated.length - 1), Buffer.concat([inflated, Buffer.from([0])])]) {
      expect(() => decodeJournalEntry(deflateRawSync(broken))).toThrow("not a proof-of-indexing journal entry");
    }
    const tiny = encodeJournalEntry({ version: "fast", record: { block: 1, regions: [{ name: "r", events: [{ kind: "SetEntity", entityType: "T", id: "a", data: new Map([["n", { kind: "Int", value: 1 }]]) }] }] } });
    const plain = inflateRawSync(tiny);
    // FORMAT, version, block, 1 region, "r", 1 event, SET, new string "T", "a", 1 field, new string "n", Int
    expect([...plain]).toEqual([1, 1, 1, 1, 1, 114, 1, 0, 0, 1, 84, 1, 97, 1, 0, 1, 110, 1, 1, 0, 0, 0]);
    const unknownKind = Buffer.from(plain);
    unknownKind[17] = 0x3f;
    expect(() => decodeJournalEntry(deflateRawSync(unknownKind))).toThrow("not a proof-of-indexing journal entry");
    const unknownString = Buffer.from(plain);
    unknownString[14] = 5;
    expect(() => decodeJournalEntry(deflateRawSync(unknownString))).toThrow("not a proof-of-indexing journal entry");
  });
});
