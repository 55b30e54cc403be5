// Hex and bigint helpers shared by the codec and host functions (no allocation-heavy paths).
import { HostError } from "../errors.js";

/** graph-node's BigInt size limit: 131072 decimal digits, in bits, including the sign bit. */
export const BIGINT_MAX_BITS = 435_412;

/** Lowercase 0x hex of bytes ("0x" for empty), as graph-node's bytesToHex. */
export function bytesToHex(bytes: Uint8Array): string {
  // One native encode: a string built byte by byte left a chain of partial strings per call.
  return "0x" + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

const NIBBLES = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) table[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    table[97 + i] = 10 + i;
    table[65 + i] = 10 + i;
  }
  return table;
})();

/** The value of one hex digit's char code, or -1. */
export function nibble(code: number): number {
  return code < 256 ? NIBBLES[code]! : -1;
}

/** Parses hex with an optional 0x prefix; returns null on odd length or a non-hex digit. */
export function tryHexToBytes(hex: string): Uint8Array | null {
  const start = hex.startsWith("0x") || hex.startsWith("0X") ? 2 : 0;
  const len = hex.length - start;
  if (len % 2 !== 0) return null;
  const out = new Uint8Array(len / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(start + 2 * i));
    const lo = nibble(hex.charCodeAt(start + 2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Bytes from a 0x hex string or bytes; throws a deterministic CONVERSION error on bad hex. */
export function toBytes(value: string | Uint8Array, what = "value"): Uint8Array {
  if (typeof value !== "string") return value;
  const bytes = tryHexToBytes(value);
  if (bytes === null) throw new HostError("CONVERSION", `${what} is not valid hex: '${value}'`);
  return bytes;
}

/** Minimal little-endian two's complement bytes; zero is [0] (num-bigint's to_signed_bytes_le). */
export function bigintToSignedLe(value: bigint): Uint8Array {
  if (value >= -0x80000000n && value < 0x80000000n) {
    // Small values (log indexes, block numbers) without bigint arithmetic.
    let v = Number(value);
    const n = v >= 0 ? (v < 0x80 ? 1 : v < 0x8000 ? 2 : v < 0x800000 ? 3 : 4) : v >= -0x80 ? 1 : v >= -0x8000 ? 2 : v >= -0x800000 ? 3 : 4;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      out[i] = v & 0xff;
      v >>= 8;
    }
    return out;
  }
  const magnitudeBits = bitLength(value < 0n ? -value - 1n : value);
  const n = Math.ceil((magnitudeBits + 1) / 8);
  const u = value < 0n ? value + (1n << BigInt(8 * n)) : value;
  const hex = u.toString(16).padStart(2 * n, "0");
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(hex.slice(2 * (n - 1 - i), 2 * (n - i)), 16);
  return out;
}

/** The bytes of a little-endian value turned around, for one native hex encode. */
let bigEndian = Buffer.allocUnsafe(64);

/** Reads little-endian two's complement bytes (empty = 0). */
export function signedLeToBigint(bytes: Uint8Array): bigint {
  const n = bytes.length;
  if (n === 0) return 0n;
  if (n <= 6) {
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v = v * 256 + bytes[i]!;
    if (bytes[n - 1]! & 0x80) v -= 2 ** (8 * n);
    return BigInt(v);
  }
  if (bigEndian.length < n) bigEndian = Buffer.allocUnsafe(Math.max(n, 2 * bigEndian.length));
  for (let i = 0; i < n; i++) bigEndian[i] = bytes[n - 1 - i]!;
  let v = BigInt("0x" + bigEndian.toString("hex", 0, n));
  if (bytes[n - 1]! & 0x80) v -= 1n << BigInt(8 * n);
  return v;
}

/** Unsigned big-endian magnitude bytes (empty for zero). */
export function bigintToBeBytes(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0);
  let hex = value.toString(16);
  if (hex.length % 2) hex = "0" + hex;
  return tryHexToBytes(hex)!;
}

/** Number of bits of |value| (num-bigint's `bits()`). */
export function bitLength(value: bigint): number {
  const v = value < 0n ? -value : value;
  return v === 0n ? 0 : v.toString(2).length;
}
