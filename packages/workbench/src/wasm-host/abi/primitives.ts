// Primitive AssemblyScript objects in module memory: strings, ArrayBuffers, typed arrays (Bytes,
// BigInt), BigDecimal and pointer arrays, with graph-node's layout (asc_abi/v0_0_5.rs).
// One module per family (stringCodec, bytesCodec, bigNumberCodec, arrayCodec); each factory returns
// direct closures over the heap, so a read or write is one call, as before the split.
import type { AscHeap } from "./heap.js";
import { createStringCodec } from "./stringCodec.js";
import { createBytesCodec } from "./bytesCodec.js";
import { createBigNumberCodec } from "./bigNumberCodec.js";
import { createArrayCodec } from "./arrayCodec.js";

export { nullCheck } from "./memoryChecks.js";

export function createPrimitiveCodec(heap: AscHeap) {
  const u8 = () => heap.views().u8;
  const readU32 = (ptr: number) => heap.views().dv.getUint32(ptr, true);
  const readI32 = (ptr: number) => heap.views().dv.getInt32(ptr, true);
  const readU64 = (ptr: number) => heap.views().dv.getBigUint64(ptr, true);
  const writeU32 = (ptr: number, value: number) => heap.views().dv.setUint32(ptr, value >>> 0, true);

  const { readString, writeString } = createStringCodec(heap);
  const { readArrayBuffer, writeArrayBuffer, readBytes, writeBytesAsHex, writeBytes, writeBytesHex } = createBytesCodec(heap);
  const { readBigInt, writeBigInt, readBigDecimal, writeBigDecimal } = createBigNumberCodec(heap, writeBytes);
  const { readArray, writeArray } = createArrayCodec(heap);

  return {
    u8,
    readU32,
    readI32,
    readU64,
    writeU32,
    readString,
    writeString,
    readArrayBuffer,
    writeArrayBuffer,
    readBytes,
    writeBytesAsHex,
    writeBytes,
    writeBytesHex,
    readBigInt,
    writeBigInt,
    readBigDecimal,
    writeBigDecimal,
    readArray,
    writeArray,
  };
}

export type PrimitiveCodec = ReturnType<typeof createPrimitiveCodec>;
