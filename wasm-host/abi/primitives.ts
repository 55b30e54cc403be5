// Primitive AssemblyScript objects in module memory: strings, ArrayBuffers, typed arrays (Bytes,
// BigInt), BigDecimal and pointer arrays, with graph-node's layout (asc_abi/v0_0_5.rs).
import { normalize, MIN_EXP, MAX_EXP } from "../values/bigDecimalMath.js";
import type { BigDecimalValue } from "../values/bigDecimalMath.js";
import type { AscHeap } from "./heap.js";
import { TypeId } from "./typeIds.js";
import { HostError } from "../errors.js";
import { BIGINT_MAX_BITS, bigintToSignedLe, bitLength, bytesToHex, nibble, signedLeToBigint } from "../values/hex.js";

const SHORT_STRING = 32;
const SLAB_SIZE = 64 * 1024;
const SLAB_ITEM_MAX = 1024;
const STRING_CHUNK = 8192;

/** Throws a MEMORY error for a null pointer where an object is required. */
export function nullCheck(ptr: number, what: string): void {
  if (ptr === 0) throw new HostError("MEMORY", `unexpected null ${what} pointer`);
}

export function createPrimitiveCodec(heap: AscHeap) {
  /** A corrupt pointer or length must fail deterministically, not read past memory (graph-node checks too). */
  const checkRange = (start: number, length: number, what: string) => {
    if (length < 0 || start + length > heap.views().u8.byteLength) {
      throw new HostError("MEMORY", `${what} at ${start} with length ${length} is out of bounds of module memory`);
    }
  };
  const u8 = () => heap.views().u8;
  const readU32 = (ptr: number) => heap.views().dv.getUint32(ptr, true);
  const readI32 = (ptr: number) => heap.views().dv.getInt32(ptr, true);
  const readU64 = (ptr: number) => heap.views().dv.getBigUint64(ptr, true);
  const writeU32 = (ptr: number, value: number) => heap.views().dv.setUint32(ptr, value >>> 0, true);

  /** graph-node: `String::from_utf16` (a lone surrogate is an error), then NUL characters stripped. */
  const readString = (ptr: number): string => {
    nullCheck(ptr, "string");
    const { u16, dv } = heap.views();
    const n = dv.getUint32(ptr - 4, true) >>> 1;
    checkRange(ptr, 2 * n, "string");
    if ((ptr & 1) !== 0) throw new HostError("MEMORY", `string at ${ptr} is not aligned`);
    const base = ptr >>> 1;
    let s = "";
    if (n <= SHORT_STRING) {
      for (let i = 0; i < n; i++) s += String.fromCharCode(u16[base + i]!);
    } else {
      // fromCharCode keeps lone surrogates (TextDecoder would replace them), so they can be rejected.
      for (let i = 0; i < n; i += STRING_CHUNK) {
        s += String.fromCharCode.apply(null, u16.subarray(base + i, base + Math.min(n, i + STRING_CHUNK)) as unknown as number[]);
      }
    }
    if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed()) {
      throw new HostError("CONVERSION", "invalid utf-16: lone surrogate found");
    }
    return s.includes("\u0000") ? s.replaceAll("\u0000", "") : s;
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
    checkRange(ptr, len, "ArrayBuffer");
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
    checkRange(dataStart, byteLength, "typed array");
    return copyOut(bytes, dataStart, byteLength);
  };

  const writeBytes = (data: Uint8Array): number => typedArrayOver(writeArrayBuffer(data), data.length);

  const readBytesHex = (ptr: number): string => {
    nullCheck(ptr, "typed array");
    const { u8: bytes, dv } = heap.views();
    const start = dv.getUint32(ptr + 4, true);
    const length = dv.getUint32(ptr + 8, true);
    checkRange(start, length, "typed array");
    return bytesToHex(bytes.subarray(start, start + length));
  };

  const readBigInt = (ptr: number): bigint => {
    nullCheck(ptr, "BigInt");
    const { u8: bytes, dv } = heap.views();
    const start = dv.getUint32(ptr + 4, true);
    const n = dv.getUint32(ptr + 8, true);
    checkRange(start, n, "BigInt");
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
    checkRange(dataStart, 4 * length, "array");
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
    readBytesHex,
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
