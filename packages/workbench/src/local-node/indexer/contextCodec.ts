// `createWithContext`'s context as JSON text, to store with a created data source and read back.
// Values keep their kind: BigInt and Int8 as decimal strings, Bytes as 0x hex.
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { IndexerError } from "./errors.js";

type JsonValue = { kind: string; value?: unknown };

function toJson(v: StoreValue): JsonValue {
  switch (v.kind) {
    case "Null":
      return { kind: "Null" };
    case "Bytes":
      return { kind: "Bytes", value: `0x${Buffer.from(v.value).toString("hex")}` };
    case "BigInt":
    case "Int8":
    case "Timestamp":
      return { kind: v.kind, value: v.value.toString() };
    case "Array":
      return { kind: "Array", value: v.value.map(toJson) };
    default:
      return { kind: v.kind, value: v.value };
  }
}

function fromJson(j: JsonValue): StoreValue {
  switch (j.kind) {
    case "Null":
      return { kind: "Null" };
    case "Bytes":
      return { kind: "Bytes", value: Uint8Array.from(Buffer.from(String(j.value).replace(/^0x/, ""), "hex")) };
    case "BigInt":
    case "Int8":
    case "Timestamp":
      return { kind: j.kind, value: BigInt(String(j.value)) };
    case "Array":
      return { kind: "Array", value: (j.value as JsonValue[]).map(fromJson) };
    case "String":
    case "BigDecimal":
      return { kind: j.kind, value: String(j.value) };
    case "Int":
      return { kind: "Int", value: Number(j.value) };
    case "Bool":
      return { kind: "Bool", value: j.value === true };
    default:
      throw new IndexerError(`stored data source context has an unknown value kind ${j.kind}`);
  }
}

/** Stable text: keys in insertion order, as the mapping set them. */
export function encodeContext(context: EntityData): string {
  return JSON.stringify([...context].map(([k, v]) => [k, toJson(v)]));
}

export function decodeContext(text: string): EntityData {
  const entries = JSON.parse(text) as [string, JsonValue][];
  return new Map(entries.map(([k, v]) => [k, fromJson(v)]));
}
