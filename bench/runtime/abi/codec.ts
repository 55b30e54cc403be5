// The AssemblyScript (>= 0.19, apiVersion >= 0.0.5) object codec: reads and writes graph-ts objects
// in a module's memory with graph-node's layout. See abi/memory.ts for headers and allocation.
import type { EntityData, StoreValue } from "../entity/storeValue.js";
import type { EthereumValue } from "../types.js";
import type { BigDecimalValue } from "../host/bigDecimalMath.js";
import type { JsonValue } from "./json.js";

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
  /** Any TypedArray view (Uint8Array, Bytes, Address, ByteArray) as a copy of its bytes. */
  readBytes(ptr: number): Uint8Array;
  /** Writes a Uint8Array-class typed array (graph-ts Bytes/Address/ByteArray). */
  writeBytes(bytes: Uint8Array): number;
  readBigInt(ptr: number): bigint;
  writeBigInt(value: bigint): number;
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
  writeEntity(data: EntityData): number;

  readEthereumValue(ptr: number): EthereumValue;
  writeEthereumValue(value: EthereumValue): number;

  readJsonValue(ptr: number): JsonValue;
  writeJsonValue(value: JsonValue): number;
}
