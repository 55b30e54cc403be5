// Unsigned integers as little-endian bytes, as the stable-hash crate writes them (and ibig stores its
// numbers), converted through hex: one BigInt conversion, not one per byte. The hex goes through
// buffers kept by the thread: the hashing converts hundreds of thousands of 2048-bit numbers, and a new
// buffer for each (Node's pool hands out 8 KiB at a time) cost the hasher thread a tenth of its time in
// allocation and the collections it brought.

const EMPTY = new Uint8Array(0);
let toBigScratch = Buffer.allocUnsafe(512);
let fromBigScratch = Buffer.allocUnsafe(512);

/** The number the little-endian `bytes` spell (empty: 0). */
export function bytesToBigLe(bytes: Uint8Array): bigint {
  const n = bytes.length;
  if (n === 0) return 0n;
  if (toBigScratch.length < n) toBigScratch = Buffer.allocUnsafe(2 * n);
  for (let i = 0; i < n; i++) toBigScratch[i] = bytes[n - 1 - i]!;
  return BigInt(`0x${toBigScratch.toString("hex", 0, n)}`);
}

/**
 * Little-endian bytes without high zeros (ibig's `to_le_bytes`; zero is empty), in a view of a buffer
 * the next call overwrites: for bytes used at once (hashed, copied).
 */
export function bigToBytesLeView(value: bigint): Uint8Array {
  if (value === 0n) return EMPTY;
  const hex = value.toString(16);
  const n = (hex.length + 1) >>> 1;
  if (fromBigScratch.length < n) fromBigScratch = Buffer.allocUnsafe(2 * n);
  fromBigScratch.write(hex.length % 2 ? `0${hex}` : hex, 0, n, "hex");
  return fromBigScratch.subarray(0, n).reverse();
}

/** Little-endian bytes without high zeros (ibig's `to_le_bytes`; zero is empty), in an array of their own. */
export function bigToBytesLe(value: bigint): Uint8Array {
  return Uint8Array.from(bigToBytesLeView(value));
}
