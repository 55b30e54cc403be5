// Enum-shaped and composite graph-ts objects: store Value, Entity (TypedMap), ethereum.Value,
// JSONValue, Wrapped<bool>, with graph-node's layout (to_from/external.rs).
import type { EntityData, StoreValue } from "../values/storeValue.js";
import type { EthereumValue } from "../values/ethereumValue.js";
import { toString as bigDecimalToString, fromString as bigDecimalFromString } from "../values/bigDecimalMath.js";
import type { JsonValue } from "./json.js";
import type { AscHeap } from "./heap.js";
import { nullCheck, type PrimitiveCodec } from "./primitives.js";
import { TypeId, EthereumValueKind, JsonValueKind } from "./typeIds.js";
import { HostError } from "../errors.js";
import { bytesToHex } from "../values/hex.js";

export function createValueCodec(heap: AscHeap, p: PrimitiveCodec) {
  const { readU32, readString, writeString, readBytes, writeBytes, writeBytesHex, readBigInt, writeBigInt, readBigDecimal, writeBigDecimal, readArray, writeArray } = p;

  /** An enum object {kind u32, pad u32, payload u64}. */
  const writeEnum = (typeId: number, kind: number, low: number, high = 0): number => {
    const ptr = heap.alloc(typeId, 16);
    const u32 = heap.views().u32;
    const i = ptr >>> 2;
    u32[i] = kind;
    u32[i + 2] = low >>> 0;
    u32[i + 3] = high >>> 0;
    return ptr;
  };
  const writeEnumI64 = (typeId: number, kind: number, value: bigint): number => {
    const ptr = heap.alloc(typeId, 16);
    const dv = heap.views().dv;
    dv.setUint32(ptr, kind, true);
    dv.setBigInt64(ptr + 8, BigInt.asIntN(64, value), true);
    return ptr;
  };

  const readStoreValue = (ptr: number): StoreValue => {
    nullCheck(ptr, "Value");
    const dv = heap.views().dv;
    const kind = dv.getUint32(ptr, true);
    const payload = dv.getUint32(ptr + 8, true);
    switch (kind) {
      case 0:
        return { kind: "String", value: readString(payload) };
      case 1:
        return { kind: "Int", value: dv.getInt32(ptr + 8, true) };
      case 2:
        return { kind: "BigDecimal", value: bigDecimalToString(readBigDecimal(payload)) };
      case 3:
        return { kind: "Bool", value: dv.getBigUint64(ptr + 8, true) !== 0n };
      case 4:
        return { kind: "Array", value: readArray(payload, readStoreValue) };
      case 5:
        return { kind: "Null" };
      case 6:
        return { kind: "Bytes", value: readBytes(payload) };
      case 7:
        return { kind: "BigInt", value: readBigInt(payload) };
      case 8:
        return { kind: "Int8", value: dv.getBigInt64(ptr + 8, true) };
      case 9:
        return { kind: "Timestamp", value: dv.getBigInt64(ptr + 8, true) };
      default:
        throw new HostError("MEMORY", `invalid store Value kind ${kind}`);
    }
  };

  const writeStoreValue = (value: StoreValue): number => {
    switch (value.kind) {
      case "String":
        return writeEnum(TypeId.StoreValue, 0, writeString(value.value));
      case "Int":
        return writeEnum(TypeId.StoreValue, 1, value.value, value.value < 0 ? -1 : 0);
      case "BigDecimal": {
        const parsed = bigDecimalFromString(value.value);
        if (parsed === null) throw new HostError("CONVERSION", `not a BigDecimal: '${value.value}'`);
        return writeEnum(TypeId.StoreValue, 2, writeBigDecimal(parsed));
      }
      case "Bool":
        return writeEnum(TypeId.StoreValue, 3, value.value ? 1 : 0);
      case "Array":
        return writeEnum(TypeId.StoreValue, 4, writeArray(TypeId.ArrayStoreValue, value.value, writeStoreValue));
      case "Null":
        return writeEnum(TypeId.StoreValue, 5, 0);
      case "Bytes":
        return writeEnum(TypeId.StoreValue, 6, writeBytes(value.value));
      case "BigInt":
        return writeEnum(TypeId.StoreValue, 7, writeBigInt(value.value));
      case "Int8":
        return writeEnumI64(TypeId.StoreValue, 8, value.value);
      case "Timestamp":
        return writeEnumI64(TypeId.StoreValue, 9, value.value);
    }
  };

  const readEntity = (ptr: number): EntityData => {
    nullCheck(ptr, "entity");
    const data: EntityData = new Map();
    const entries = readU32(ptr);
    readArray(entries, (entry) => {
      const key = readString(readU32(entry));
      data.set(key, readStoreValue(readU32(entry + 4)));
      return null;
    });
    return data;
  };

  const writeEntity = (data: EntityData): number => {
    const keys = [...data.keys()].sort();
    const entries = writeArray(TypeId.ArrayTypedMapEntryStringStoreValue, keys, (key) => {
      const k = writeString(key);
      const v = writeStoreValue(data.get(key)!);
      const entry = heap.alloc(TypeId.TypedMapEntryStringStoreValue, 8);
      const u32 = heap.views().u32;
      u32[entry >>> 2] = k;
      u32[(entry >>> 2) + 1] = v;
      return entry;
    });
    const ptr = heap.alloc(TypeId.TypedMapStringStoreValue, 4);
    heap.views().u32[ptr >>> 2] = entries;
    return ptr;
  };

  const readEthereumValue = (ptr: number): EthereumValue => {
    nullCheck(ptr, "ethereum.Value");
    const dv = heap.views().dv;
    const kind = dv.getUint32(ptr, true);
    const payload = dv.getUint32(ptr + 8, true);
    switch (kind) {
      case EthereumValueKind.address: {
        const bytes = readBytes(payload);
        if (bytes.length !== 20) throw new HostError("CONVERSION", `ethereum address must be 20 bytes, got ${bytes.length}`);
        return { kind: "address", value: bytesToHex(bytes) };
      }
      case EthereumValueKind.fixedBytes:
        return { kind: "fixedBytes", value: readBytes(payload) };
      case EthereumValueKind.bytes:
        return { kind: "bytes", value: readBytes(payload) };
      case EthereumValueKind.int:
        return { kind: "int", value: readBigInt(payload) };
      case EthereumValueKind.uint:
        return { kind: "uint", value: readBigInt(payload) };
      case EthereumValueKind.bool:
        return { kind: "bool", value: dv.getBigUint64(ptr + 8, true) !== 0n };
      case EthereumValueKind.string:
        return { kind: "string", value: readString(payload) };
      case EthereumValueKind.fixedArray:
        return { kind: "fixedArray", value: readArray(payload, readEthereumValue) };
      case EthereumValueKind.array:
        return { kind: "array", value: readArray(payload, readEthereumValue) };
      case EthereumValueKind.tuple:
        return { kind: "tuple", value: readArray(payload, readEthereumValue) };
      case EthereumValueKind.function:
        return { kind: "function", value: readBytes(payload) };
      default:
        throw new HostError("MEMORY", `invalid ethereum.Value kind ${kind}`);
    }
  };

  const writeEthereumValue = (value: EthereumValue): number => {
    const kind = EthereumValueKind[value.kind];
    switch (value.kind) {
      case "address":
      case "fixedBytes":
      case "bytes":
      case "function":
        return writeEnum(TypeId.EthereumValue, kind, typeof value.value === "string" ? writeBytesHex(value.value) : writeBytes(value.value));
      case "int":
      case "uint":
        return writeEnum(TypeId.EthereumValue, kind, writeBigInt(value.value));
      case "bool":
        return writeEnum(TypeId.EthereumValue, kind, value.value ? 1 : 0);
      case "string":
        return writeEnum(TypeId.EthereumValue, kind, writeString(value.value));
      case "fixedArray":
      case "array":
      case "tuple":
        return writeEnum(TypeId.EthereumValue, kind, writeArray(TypeId.ArrayEthereumValue, value.value, writeEthereumValue));
    }
  };

  const readJsonValue = (ptr: number): JsonValue => {
    nullCheck(ptr, "JSONValue");
    const dv = heap.views().dv;
    const kind = dv.getUint32(ptr, true);
    const payload = dv.getUint32(ptr + 8, true);
    switch (kind) {
      case JsonValueKind.Null:
        return { kind: "null" };
      case JsonValueKind.Bool:
        return { kind: "bool", value: dv.getBigUint64(ptr + 8, true) !== 0n };
      case JsonValueKind.Number:
        return { kind: "number", value: readString(payload) };
      case JsonValueKind.String:
        return { kind: "string", value: readString(payload) };
      case JsonValueKind.Array:
        return { kind: "array", value: readArray(payload, readJsonValue) };
      case JsonValueKind.Object:
        return {
          kind: "object",
          value: readArray(readU32(payload), (entry) => [readString(readU32(entry)), readJsonValue(readU32(entry + 4))] as [string, JsonValue]),
        };
      default:
        throw new HostError("MEMORY", `invalid JSONValue kind ${kind}`);
    }
  };

  const writeJsonValue = (value: JsonValue): number => {
    switch (value.kind) {
      case "null":
        return writeEnum(TypeId.JsonValue, JsonValueKind.Null, 0);
      case "bool":
        return writeEnum(TypeId.JsonValue, JsonValueKind.Bool, value.value ? 1 : 0);
      case "number":
        return writeEnum(TypeId.JsonValue, JsonValueKind.Number, writeString(value.value));
      case "string":
        return writeEnum(TypeId.JsonValue, JsonValueKind.String, writeString(value.value));
      case "array":
        return writeEnum(TypeId.JsonValue, JsonValueKind.Array, writeArray(TypeId.ArrayJsonValue, value.value, writeJsonValue));
      case "object": {
        const entries = writeArray(TypeId.ArrayTypedMapEntryStringJsonValue, value.value, ([key, v]) => {
          const k = writeString(key);
          const val = writeJsonValue(v);
          const entry = heap.alloc(TypeId.TypedMapEntryStringJsonValue, 8);
          const u32 = heap.views().u32;
          u32[entry >>> 2] = k;
          u32[(entry >>> 2) + 1] = val;
          return entry;
        });
        const map = heap.alloc(TypeId.TypedMapStringJsonValue, 4);
        heap.views().u32[map >>> 2] = entries;
        return writeEnum(TypeId.JsonValue, JsonValueKind.Object, map);
      }
    }
  };

  const writeWrappedBool = (value: boolean): number => {
    const ptr = heap.alloc(TypeId.WrappedBool, 4);
    heap.views().u8[ptr] = value ? 1 : 0;
    return ptr;
  };

  return { readStoreValue, writeStoreValue, readEntity, writeEntity, readEthereumValue, writeEthereumValue, readJsonValue, writeJsonValue, writeWrappedBool };
}
