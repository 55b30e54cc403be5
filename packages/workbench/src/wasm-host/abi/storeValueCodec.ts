// graph-ts store `Value` and `Entity` (TypedMap<string, Value>) in module memory (to_from/external.rs).
import type { EntityData, StoreValue } from "../values/storeValue.js";
import { toString as bigDecimalToString, fromString as bigDecimalFromString } from "../values/bigDecimalMath.js";
import type { AscHeap } from "./heap.js";
import type { PrimitiveCodec } from "./primitives.js";
import { nullCheck } from "./memoryChecks.js";
import { writeEnum, writeEnumI64 } from "./enumObjects.js";
import { TypeId } from "./typeIds.js";
import { HostError } from "../errors.js";

export function createStoreValueCodec(heap: AscHeap, p: PrimitiveCodec) {
  const { readU32, readString, writeString, readBytes, writeBytes, readBigInt, writeBigInt, readBigDecimal, writeBigDecimal, readArray, writeArray } = p;

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
        return writeEnum(heap, TypeId.StoreValue, 0, writeString(value.value));
      case "Int":
        return writeEnum(heap, TypeId.StoreValue, 1, value.value, value.value < 0 ? -1 : 0);
      case "BigDecimal": {
        const parsed = bigDecimalFromString(value.value);
        if (parsed === null) throw new HostError("CONVERSION", `not a BigDecimal: '${value.value}'`);
        return writeEnum(heap, TypeId.StoreValue, 2, writeBigDecimal(parsed));
      }
      case "Bool":
        return writeEnum(heap, TypeId.StoreValue, 3, value.value ? 1 : 0);
      case "Array":
        return writeEnum(heap, TypeId.StoreValue, 4, writeArray(TypeId.ArrayStoreValue, value.value, writeStoreValue));
      case "Null":
        return writeEnum(heap, TypeId.StoreValue, 5, 0);
      case "Bytes":
        return writeEnum(heap, TypeId.StoreValue, 6, writeBytes(value.value));
      case "BigInt":
        return writeEnum(heap, TypeId.StoreValue, 7, writeBigInt(value.value));
      case "Int8":
        return writeEnumI64(heap, TypeId.StoreValue, 8, value.value);
      case "Timestamp":
        return writeEnumI64(heap, TypeId.StoreValue, 9, value.value);
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

  return { readStoreValue, writeStoreValue, readEntity, writeEntity };
}
