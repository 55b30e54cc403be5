// Value forms Matchstick shows and compares, on plain values:
// - graph-node's `Value` Display (what `assert.fieldEquals` compares the expected string against);
// - graph-node's serde form `{"type": ..., "data": ...}` (what logStore/logEntity print);
// - Matchstick's `get_token_value`: an ethereum.Value as a store Value (what `assert.equals` compares).
import type { EntityData, StoreValue, EthereumValue } from "../../wasm-host/index.js";

export function bytesHex(bytes: Uint8Array): string {
  return "0x" + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

function toBytes(value: string | Uint8Array): Uint8Array {
  if (typeof value !== "string") return value;
  const hex = value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

/** graph-node's `impl Display for Value`. */
export function valueToString(value: StoreValue): string {
  switch (value.kind) {
    case "String":
      return value.value;
    case "Int":
      return String(value.value);
    case "Int8":
    case "BigInt":
    case "Timestamp":
      return value.value.toString();
    case "BigDecimal":
      return value.value;
    case "Bool":
      return value.value ? "true" : "false";
    case "Null":
      return "null";
    case "Bytes":
      return bytesHex(value.value);
    case "Array":
      return `[${value.value.map(valueToString).join(", ")}]`;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** graph-node's serde form of a Value (`#[serde(tag = "type", content = "data")]`, List as "List"). */
export function valueToJson(value: StoreValue): Json {
  switch (value.kind) {
    case "Null":
      return { type: "Null" };
    case "Array":
      return { type: "List", data: value.value.map(valueToJson) };
    case "Int":
      return { type: "Int", data: value.value };
    case "Bool":
      return { type: "Bool", data: value.value };
    default:
      return { type: value.kind, data: valueToString(value) };
  }
}

export function entityToJson(data: EntityData): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [field, value] of data) out[field] = valueToJson(value);
  return out;
}

/** Matchstick's `get_token_value`: addresses and bytes become Bytes, ints BigInt, arrays and tuples List. */
export function tokenToValue(value: EthereumValue): StoreValue {
  switch (value.kind) {
    case "address":
    case "fixedBytes":
    case "bytes":
    case "function":
      return { kind: "Bytes", value: toBytes(value.value) };
    case "int":
    case "uint":
      return { kind: "BigInt", value: value.value };
    case "bool":
      return { kind: "Bool", value: value.value };
    case "string":
      return { kind: "String", value: value.value };
    case "fixedArray":
    case "array":
    case "tuple":
      return { kind: "Array", value: value.value.map(tokenToValue) };
  }
}

/** graph-node's `PartialEq for Value` (variant and content). */
export function valuesEqual(a: StoreValue, b: StoreValue): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "Null":
      return true;
    case "Bytes":
      return bytesHex(a.value) === bytesHex((b as typeof a).value);
    case "Array": {
      const other = (b as typeof a).value;
      return a.value.length === other.length && a.value.every((v, i) => valuesEqual(v, other[i] as StoreValue));
    }
    default:
      return a.value === (b as typeof a).value;
  }
}
