// ArrayBuffers and Uint8Array-class typed arrays (graph-ts Bytes, Address, ByteArray, BigInt's storage)
// in module memory, read as copies, as hex in place, or written from bytes or hex.
import type { AscHeap } from "./heap.js";
import { TypeId } from "./typeIds.js";
import { HostError } from "../errors.js";
import { nibble } from "../values/hex.js";
import { checkRange, nullCheck } from "./memoryChecks.js";

const SLAB_SIZE = 64 * 1024;
const SLAB_ITEM_MAX = 1024;
const HEX_DIGITS = Uint16Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/** A Uint8Array object {buffer, dataStart, byteLength} over a whole ArrayBuffer. */
export function typedArrayOver(heap: AscHeap, buffer: number, length: number): number {
  const ptr = heap.alloc(TypeId.Uint8Array, 12);
  const u32 = heap.views().u32;
  const i = ptr >>> 2;
  u32[i] = buffer;
  u32[i + 1] = buffer;
  u32[i + 2] = length;
  return ptr;
}

export function createBytesCodec(heap: AscHeap) {
  const readArrayBuffer = (ptr: number): Uint8Array => {
    nullCheck(ptr, "ArrayBuffer");
    const { u8: bytes, dv } = heap.views();
    const len = dv.getUint32(ptr - 4, true);
    checkRange(heap, ptr, len, "ArrayBuffer");
    return bytes.slice(ptr, ptr + len);
  };

  const writeArrayBuffer = (data: Uint8Array): number => {
    const ptr = heap.alloc(TypeId.ArrayBuffer, data.length, false);
    heap.views().u8.set(data, ptr);
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
    return typedArrayOver(heap, buffer, n);
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
    checkRange(heap, dataStart, byteLength, "typed array");
    return copyOut(bytes, dataStart, byteLength);
  };

  const writeBytes = (data: Uint8Array): number => typedArrayOver(heap, writeArrayBuffer(data), data.length);

  /** graph-ts `Bytes.toHex`: the bytes as a lowercase 0x hex string, written straight into memory. */
  const writeBytesAsHex = (ptr: number): number => {
    nullCheck(ptr, "typed array");
    const dv = heap.views().dv;
    const start = dv.getUint32(ptr + 4, true);
    const length = dv.getUint32(ptr + 8, true);
    checkRange(heap, start, length, "typed array");
    // The allocation may grow memory: views are taken after it.
    const out = heap.alloc(TypeId.String, 4 + 4 * length, false);
    const { u8, u16 } = heap.views();
    let at = out >>> 1;
    u16[at++] = 0x30;
    u16[at++] = 0x78;
    for (let i = start; i < start + length; i++) {
      const b = u8[i]!;
      u16[at++] = HEX_DIGITS[b >>> 4]!;
      u16[at++] = HEX_DIGITS[b & 15]!;
    }
    return out;
  };

  return { readArrayBuffer, writeArrayBuffer, readBytes, writeBytesAsHex, writeBytes, writeBytesHex };
}
