// graph-ts `JSONValue` (json.fromBytes results, ipfs.map callbacks) in module memory; objects are
// TypedMap<string, JSONValue> with their entries in the order given.
import type { JsonValue } from "./json.js";
import type { AscHeap } from "./heap.js";
import type { PrimitiveCodec } from "./primitives.js";
import { nullCheck } from "./memoryChecks.js";
import { writeEnum } from "./enumObjects.js";
import { TypeId, JsonValueKind } from "./typeIds.js";
import { HostError } from "../errors.js";

export function createJsonValueCodec(heap: AscHeap, p: PrimitiveCodec) {
  const { readU32, readString, writeString, readArray, writeArray } = p;

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
        return writeEnum(heap, TypeId.JsonValue, JsonValueKind.Null, 0);
      case "bool":
        return writeEnum(heap, TypeId.JsonValue, JsonValueKind.Bool, value.value ? 1 : 0);
      case "number":
        return writeEnum(heap, TypeId.JsonValue, JsonValueKind.Number, writeString(value.value));
      case "string":
        return writeEnum(heap, TypeId.JsonValue, JsonValueKind.String, writeString(value.value));
      case "array":
        return writeEnum(heap, TypeId.JsonValue, JsonValueKind.Array, writeArray(TypeId.ArrayJsonValue, value.value, writeJsonValue));
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
        return writeEnum(heap, TypeId.JsonValue, JsonValueKind.Object, map);
      }
    }
  };

  return { readJsonValue, writeJsonValue };
}
