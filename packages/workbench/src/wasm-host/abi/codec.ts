// The AssemblyScript (>= 0.19, apiVersion >= 0.0.5) object codec: reads and writes graph-ts objects
// in a module's memory with graph-node's layout (runtime/wasm/src/asc_abi/v0_0_5.rs, to_from/).
import type { EntityData, StoreValue } from "../values/storeValue.js";
import type { EthereumValue } from "../values/ethereumValue.js";
import type { BigDecimalValue } from "../values/bigDecimalMath.js";
import type { JsonValue } from "./json.js";
import type { AscHeap } from "./heap.js";
import { createPrimitiveCodec } from "./primitives.js";
import { createValueCodec } from "./valueCodec.js";
import { TypeId } from "./typeIds.js";

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
  /** A typed array's bytes as a new lowercase 0x hex string, with no JS string between (`Bytes.toHex`). */
  writeBytesAsHex(ptr: number): number;
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

export function createAscCodec(heap: AscHeap): AscCodec {
  const primitives = createPrimitiveCodec(heap);
  const values = createValueCodec(heap, primitives);
  return {
    ...primitives,
    ...values,
    allocObject: (typeId, size) => heap.alloc(typeId, size),
    classId: (typeId) => heap.classId(typeId),
    readStringArray: (ptr) => primitives.readArray(ptr, primitives.readString),
    writeStringArray: (items) => primitives.writeArray(TypeId.ArrayString, items, primitives.writeString),
  };
}
