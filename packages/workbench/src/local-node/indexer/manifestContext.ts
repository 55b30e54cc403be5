// A data source's manifest `context` ({key: {type, data}}, as graph-node reads it) as entity data
// for `dataSource.context()`.
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { IndexerError } from "./errors.js";

export type ManifestContext = Record<string, { type: string; data: unknown }>;

function toValue(key: string, entry: { type: string; data: unknown }): StoreValue {
  const { type, data } = entry;
  switch (type) {
    case "Bool":
      return { kind: "Bool", value: data === true || data === "true" };
    case "String":
      return { kind: "String", value: String(data) };
    case "Int":
      return { kind: "Int", value: Number(data) };
    case "Int8":
      return { kind: "Int8", value: BigInt(data as string | number) };
    case "BigInt":
      return { kind: "BigInt", value: BigInt(data as string | number) };
    case "BigDecimal":
      return { kind: "BigDecimal", value: String(data) };
    case "Bytes":
      return { kind: "Bytes", value: Uint8Array.from(Buffer.from(String(data).replace(/^0x/, ""), "hex")) };
    case "Timestamp":
      return { kind: "Timestamp", value: BigInt(data as string | number) };
    case "Null":
      return { kind: "Null" };
    case "List":
      if (!Array.isArray(data)) throw new IndexerError(`context entry ${key}: a List needs an array`);
      return { kind: "Array", value: (data as { type: string; data: unknown }[]).map((d) => toValue(key, d)) };
    default:
      throw new IndexerError(`context entry ${key}: unknown type ${type}`);
  }
}

export function contextToEntity(context: ManifestContext | null | undefined): EntityData | null {
  if (!context) return null;
  const out: EntityData = new Map();
  for (const [key, entry] of Object.entries(context)) out.set(key, toValue(key, entry));
  return out;
}
