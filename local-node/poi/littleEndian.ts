// Unsigned integers as little-endian bytes, as the stable-hash crate writes them (and ibig stores its
// numbers), converted through hex: one BigInt conversion, not one per byte.

/** The number the little-endian `bytes` spell (empty: 0). */
export function bytesToBigLe(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  return BigInt(`0x${Buffer.from(bytes).reverse().toString("hex")}`);
}

/** Little-endian bytes without high zero bytes (ibig's `to_le_bytes`; zero is empty). */
export function bigToBytesLe(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0);
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex").reverse();
}
