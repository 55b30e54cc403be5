// Unsigned LEB128, the variable-length integers of WebAssembly modules, of graph-node's legacy stable
// hash paths and of the proof-of-indexing journal: seven bits a byte, low bits first, the high bit set on
// every byte but the last.

/** Writes `value` (a non-negative safe integer) into `out` at `at`; returns where the next field starts. */
export function writeUleb128(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  out[at++] = value;
  return at;
}

/** Appends the bytes of `value` (a non-negative safe integer) to `out`. */
export function pushUleb128(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
}

/** The bytes of `value` (a non-negative safe integer). */
export function encodeUleb128(value: number): number[] {
  const out: number[] = [];
  pushUleb128(out, value);
  return out;
}

/**
 * The number at `at`, of at most `maxBytes` bytes, and where the next field starts; null when the bytes
 * end first or the number runs longer.
 */
export function readUleb128(bytes: Uint8Array, at: number, maxBytes: number): { value: number; next: number } | null {
  let value = 0;
  for (let p = at, scale = 1; p < bytes.length && p < at + maxBytes; p++, scale *= 0x80) {
    const b = bytes[p]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, next: p + 1 };
  }
  return null;
}
