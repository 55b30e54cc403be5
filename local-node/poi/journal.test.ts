// The journal entry's bytes give back the record they were made from, every value kind and the fields'
// order included, and bytes that are no entry are refused.
import { describe, expect, it } from "vitest";
import { serialize } from "node:v8";
import { deflateRawSync } from "node:zlib";
import type { StoreValue } from "../../wasm-host/index.js";
import type { BlockPoiRecord } from "./blockStream.js";
import { decodeJournalEntry, encodeJournalEntry } from "./journal.js";
import { hashBlockRecord } from "./index.js";

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
  ["int8", { kind: "Int8", value: 2n ** 63n - 1n }],
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

  it("refuse bytes that are no entry", () => {
    const bytes = encodeJournalEntry({ version: "legacy", record });
    expect(() => decodeJournalEntry(bytes.subarray(0, bytes.length - 3))).toThrow("not a proof-of-indexing journal entry");
    // Well-formed deflate of bytes that are no entry.
    expect(() => decodeJournalEntry(deflateRawSync(serialize({ version: "fast" })))).toThrow("not a proof-of-indexing journal entry");
  });
});
