// graph-ts BigInt (signed little-endian bytes in a typed array) and BigDecimal (digits and exponent,
// two BigInts) in module memory, with graph-node's size and exponent limits.
import { normalize, MIN_EXP, MAX_EXP } from "../values/bigDecimalMath.js";
import type { BigDecimalValue } from "../values/bigDecimalMath.js";
import type { AscHeap } from "./heap.js";
import { TypeId } from "./typeIds.js";
import { HostError } from "../errors.js";
import { BIGINT_MAX_BITS, bigintToSignedLe, bitLength, signedLeToBigint } from "../values/hex.js";
import { checkRange, nullCheck } from "./memoryChecks.js";
import { typedArrayOver } from "./bytesCodec.js";

export function createBigNumberCodec(heap: AscHeap, writeBytes: (data: Uint8Array) => number) {
  const readBigInt = (ptr: number): bigint => {
    nullCheck(ptr, "BigInt");
    const { u8: bytes, dv } = heap.views();
    const start = dv.getUint32(ptr + 4, true);
    const n = dv.getUint32(ptr + 8, true);
    checkRange(heap, start, n, "BigInt");
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
      return typedArrayOver(heap, buffer, n);
    }
    return writeBytes(bigintToSignedLe(value));
  };

  const readBigDecimal = (ptr: number): BigDecimalValue => {
    nullCheck(ptr, "BigDecimal");
    const digits = readBigInt(heap.views().dv.getUint32(ptr, true));
    const exp = readBigInt(heap.views().dv.getUint32(ptr + 4, true));
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

  return { readBigInt, writeBigInt, readBigDecimal, writeBigDecimal };
}
