// The AssemblyScript (>= 0.19, apiVersion >= 0.0.5) object codec: reads and writes graph-ts objects
// in a module's memory with graph-node's layout (runtime/wasm/src/asc_abi/v0_0_5.rs, to_from/).
import type { EntityData, StoreValue } from "../entity/storeValue.js";
import type { EthereumValue } from "../types.js";
import { normalize, toString as bigDecimalToString, fromString as bigDecimalFromString, MIN_EXP, MAX_EXP } from "../host/bigDecimalMath.js";
import type { BigDecimalValue } from "../host/bigDecimalMath.js";
import type { JsonValue } from "./json.js";
import type { AscHeap } from "./heap.js";
import { TypeId, EthereumValueKind, JsonValueKind } from "./typeIds.js";
import { HostError } from "../errors.js";
import { BIGINT_MAX_BITS, bigintToSignedLe, bitLength, bytesToHex, nibble, signedLeToBigint } from "../util/hex.js";

/**
 * Reads and writes AssemblyScript objects. Every `write*` allocates a new object through the module's
 * `allocate` (arena, as graph-node does) with the class id from `id_of_type`, and returns its pointer.
 * Every `read*` takes an object pointer (0 = null where the type is nullable).
 */
export interface AscCodec {
  /** Raw memory access (views are refreshed after memory growth). */
  u8(): Uint8Array;
  readU32(ptr: number): number;
  readI32(ptr: number): number;
  readU64(ptr: number): bigint;
  writeU32(ptr: number, value: number): void;
  /** Allocates an object of graph-ts `typeId` with `size` content bytes (zeroed) and returns its pointer. */
  allocObject(typeId: number, size: number): number;
  /** The class id the module uses for graph-ts `typeId` (cached). */
  classId(typeId: number): number;

  readString(ptr: number): string;
  writeString(value: string): number;
  readArrayBuffer(ptr: number): Uint8Array;
  writeArrayBuffer(bytes: Uint8Array): number;
  /** Any TypedArray view (Uint8Array, Bytes, Address, ByteArray, BigInt) as a copy of its bytes. */
  readBytes(ptr: number): Uint8Array;
  /** Writes a Uint8Array-class typed array (graph-ts Bytes/Address/ByteArray/BigInt). */
  writeBytes(bytes: Uint8Array): number;
  /** A typed array's bytes as lowercase 0x hex, read in place. */
  readBytesHex(ptr: number): string;
  /** Same from 0x hex (or bare hex), without an intermediate copy; bad hex is a CONVERSION error. */
  writeBytesHex(hex: string): number;
  readBigInt(ptr: number): bigint;
  writeBigInt(value: bigint): number;
  /** Normalized as graph-node reads it; the exponent must be within -6143..6144. */
  readBigDecimal(ptr: number): BigDecimalValue;
  writeBigDecimal(value: BigDecimalValue): number;

  /** Array<T> of pointers: reads each element pointer with `read`. */
  readArray<T>(ptr: number, read: (elementPtr: number) => T): T[];
  /** Array<T> of pointers of class `arrayTypeId`. */
  writeArray<T>(arrayTypeId: number, items: readonly T[], write: (item: T) => number): number;
  readStringArray(ptr: number): string[];
  writeStringArray(items: readonly string[]): number;

  readStoreValue(ptr: number): StoreValue;
  writeStoreValue(value: StoreValue): number;
  /** graph-ts `Entity` / `TypedMap<string, Value>`. Later duplicate keys win, as graph-node. */
  readEntity(ptr: number): EntityData;
  /** Writes the entity with its fields sorted by name, as graph-node does. */
  writeEntity(data: EntityData): number;

  readEthereumValue(ptr: number): EthereumValue;
  writeEthereumValue(value: EthereumValue): number;

  readJsonValue(ptr: number): JsonValue;
  writeJsonValue(value: JsonValue): number;
  /** graph-ts `Wrapped<bool>`. */
  writeWrappedBool(value: boolean): number;
}

const SHORT_STRING = 32;
const SLAB_SIZE = 64 * 1024;
const SLAB_ITEM_MAX = 1024;
const utf16 = new TextDecoder("utf-16le");

export function createAscCodec(heap: AscHeap): AscCodec {
  const u8 = () => heap.views().u8;
  const readU32 = (ptr: number) => heap.views().dv.getUint32(ptr, true);
  const readI32 = (ptr: number) => heap.views().dv.getInt32(ptr, true);
  const readU64 = (ptr: number) => heap.views().dv.getBigUint64(ptr, true);
  const writeU32 = (ptr: number, value: number) => heap.views().dv.setUint32(ptr, value >>> 0, true);
  const nullCheck = (ptr: number, what: string) => {
    if (ptr === 0) throw new HostError("MEMORY", `unexpected null ${what} pointer`);
  };

  const readString = (ptr: number): string => {
    nullCheck(ptr, "string");
    const { u8: bytes, u16, dv } = heap.views();
    const byteLength = dv.getUint32(ptr - 4, true);
    const n = byteLength >>> 1;
    if (n <= SHORT_STRING && (ptr & 1) === 0) {
      let s = "";
      const base = ptr >>> 1;
      for (let i = 0; i < n; i++) s += String.fromCharCode(u16[base + i]!);
      return s;
    }
    return utf16.decode(bytes.subarray(ptr, ptr + 2 * n));
  };

  const writeString = (value: string): number => {
    const ptr = heap.alloc(TypeId.String, value.length * 2, false);
    const u16 = heap.views().u16;
    const base = ptr >>> 1;
    for (let i = 0; i < value.length; i++) u16[base + i] = value.charCodeAt(i);
    return ptr;
  };

  const readArrayBuffer = (ptr: number): Uint8Array => {
    nullCheck(ptr, "ArrayBuffer");
    const { u8: bytes, dv } = heap.views();
    const len = dv.getUint32(ptr - 4, true);
    return bytes.slice(ptr, ptr + len);
  };

  const writeArrayBuffer = (data: Uint8Array): number => {
    const ptr = heap.alloc(TypeId.ArrayBuffer, data.length, false);
    heap.views().u8.set(data, ptr);
    return ptr;
  };

  const typedArrayOver = (buffer: number, length: number): number => {
    const ptr = heap.alloc(TypeId.Uint8Array, 12);
    const u32 = heap.views().u32;
    const i = ptr >>> 2;
    u32[i] = buffer;
    u32[i + 1] = buffer;
    u32[i + 2] = length;
    return ptr;
  };

  const writeBytesHex = (hex: string): number => {
    const start = hex.startsWith("0x") || hex.startsWith("0X") ? 2 : 0;
    const n = (hex.length - start) >>> 1;
    if ((hex.length - start) % 2 !== 0) throw new HostError("CONVERSION", `value is not valid hex: '${hex}'`);
    const buffer = heap.alloc(TypeId.ArrayBuffer, n, false);
    const u8 = heap.views().u8;
    for (let i = 0; i < n; i++) {
      const hi = nibble(hex.charCodeAt(start + 2 * i));
      const lo = nibble(hex.charCodeAt(start + 2 * i + 1));
      if ((hi | lo) < 0) throw new HostError("CONVERSION", `value is not valid hex: '${hex}'`);
      u8[buffer + i] = (hi << 4) | lo;
    }
    return typedArrayOver(buffer, n);
  };

  // Small byte copies come out of shared 64 KiB slabs: one ArrayBuffer per slab instead of one per
  // value keeps garbage collection cheap on the hot path (Bytes fields, BigInts).
  let slab = new ArrayBuffer(SLAB_SIZE);
  let slabOffset = 0;
  const copyOut = (from: Uint8Array, start: number, length: number): Uint8Array => {
    if (length > SLAB_ITEM_MAX) return from.slice(start, start + length);
    if (slabOffset + length > SLAB_SIZE) {
      slab = new ArrayBuffer(SLAB_SIZE);
      slabOffset = 0;
    }
    const out = new Uint8Array(slab, slabOffset, length);
    out.set(from.subarray(start, start + length));
    slabOffset += (length + 7) & ~7;
    return out;
  };

  const readBytes = (ptr: number): Uint8Array => {
    nullCheck(ptr, "typed array");
    const { u8: bytes, dv } = heap.views();
    const dataStart = dv.getUint32(ptr + 4, true);
    const byteLength = dv.getUint32(ptr + 8, true);
    return copyOut(bytes, dataStart, byteLength);
  };

  const writeBytes = (data: Uint8Array): number => typedArrayOver(writeArrayBuffer(data), data.length);

  const readBytesHex = (ptr: number): string => {
    nullCheck(ptr, "typed array");
    const { u8: bytes, dv } = heap.views();
    const start = dv.getUint32(ptr + 4, true);
    return bytesToHex(bytes.subarray(start, start + dv.getUint32(ptr + 8, true)));
  };

  const readBigInt = (ptr: number): bigint => {
    nullCheck(ptr, "BigInt");
    const { u8: bytes, dv } = heap.views();
    const start = dv.getUint32(ptr + 4, true);
    const n = dv.getUint32(ptr + 8, true);
    if (n === 0) return 0n;
    if (n <= 6) {
      // Up to 48 bits fit a double exactly: no bigint arithmetic, no copies.
      let v = 0;
      for (let i = n - 1; i >= 0; i--) v = v * 256 + bytes[start + i]!;
      if (bytes[start + n - 1]! & 0x80) v -= 2 ** (8 * n);
      return BigInt(v);
    }
    const value = signedLeToBigint(bytes.subarray(start, start + n));
    // graph-node's BigInt::new refuses more than 435412 bits (sign included).
    if (n * 8 > BIGINT_MAX_BITS) {
      const bits = bitLength(value) + 1;
      if (bits > BIGINT_MAX_BITS) throw new HostError("ARITHMETIC", `BigInt is too big, total bits ${bits} (max ${BIGINT_MAX_BITS})`);
    }
    return value;
  };

  const writeBigInt = (value: bigint): number => {
    if (value >= -0x80000000n && value < 0x80000000n) {
      // Minimal two's complement of a small value, written straight into module memory.
      let v = Number(value);
      const n = v >= 0 ? (v < 0x80 ? 1 : v < 0x8000 ? 2 : v < 0x800000 ? 3 : 4) : v >= -0x80 ? 1 : v >= -0x8000 ? 2 : v >= -0x800000 ? 3 : 4;
      const buffer = heap.alloc(TypeId.ArrayBuffer, n, false);
      const u8 = heap.views().u8;
      for (let i = 0; i < n; i++) {
        u8[buffer + i] = v & 0xff;
        v >>= 8;
      }
      return typedArrayOver(buffer, n);
    }
    return writeBytes(bigintToSignedLe(value));
  };

  const readBigDecimal = (ptr: number): BigDecimalValue => {
    nullCheck(ptr, "BigDecimal");
    const digits = readBigInt(readU32(ptr));
    const exp = readBigInt(readU32(ptr + 4));
    // graph-node reads the exponent as an i64, normalizes, then checks the decimal128 range.
    const value = normalize(digits, Number(BigInt.asIntN(64, exp)));
    if (value.exp < MIN_EXP || value.exp > MAX_EXP) {
      throw new HostError("ARITHMETIC", `big decimal exponent \`${value.exp}\` is outside the \`${MIN_EXP}\` to \`${MAX_EXP}\` range`);
    }
    return value;
  };

  const writeBigDecimal = (value: BigDecimalValue): number => {
    const digits = writeBigInt(value.digits);
    const exp = writeBigInt(BigInt(value.exp));
    const ptr = heap.alloc(TypeId.BigDecimal, 8);
    const u32 = heap.views().u32;
    u32[ptr >>> 2] = digits;
    u32[(ptr >>> 2) + 1] = exp;
    return ptr;
  };

  const readArray = <T>(ptr: number, read: (elementPtr: number) => T): T[] => {
    nullCheck(ptr, "array");
    const dv = heap.views().dv;
    const dataStart = dv.getUint32(ptr + 4, true);
    const length = dv.getInt32(ptr + 12, true);
    const out: T[] = new Array<T>(length);
    for (let i = 0; i < length; i++) out[i] = read(heap.views().dv.getUint32(dataStart + 4 * i, true));
    return out;
  };

  const writeArray = <T>(arrayTypeId: number, items: readonly T[], write: (item: T) => number): number => {
    const pointers: number[] = new Array<number>(items.length);
    for (let i = 0; i < items.length; i++) pointers[i] = write(items[i]!);
    const buffer = heap.alloc(TypeId.ArrayBuffer, 4 * items.length, false);
    const ptr = heap.alloc(arrayTypeId, 16);
    const u32 = heap.views().u32;
    const base = buffer >>> 2;
    for (let i = 0; i < pointers.length; i++) u32[base + i] = pointers[i]!;
    const i = ptr >>> 2;
    u32[i] = buffer;
    u32[i + 1] = buffer;
    u32[i + 2] = 4 * items.length;
    u32[i + 3] = items.length;
    return ptr;
  };

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

  return {
    u8,
    readU32,
    readI32,
    readU64,
    writeU32,
    allocObject: (typeId, size) => heap.alloc(typeId, size),
    classId: (typeId) => heap.classId(typeId),
    readString,
    writeString,
    readArrayBuffer,
    writeArrayBuffer,
    readBytes,
    readBytesHex,
    writeBytes,
    writeBytesHex,
    readBigInt,
    writeBigInt,
    readBigDecimal,
    writeBigDecimal,
    readArray,
    writeArray,
    readStringArray: (ptr) => readArray(ptr, readString),
    writeStringArray: (items) => writeArray(TypeId.ArrayString, items, writeString),
    readStoreValue,
    writeStoreValue,
    readEntity,
    writeEntity,
    readEthereumValue,
    writeEthereumValue,
    readJsonValue,
    writeJsonValue,
    writeWrappedBool,
  };
}
