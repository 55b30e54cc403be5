// Unsigned LEB128, the variable-length integers of WebAssembly modules and of graph-node's legacy
// stable hash paths: seven bits a byte, low bits first, the high bit set on every byte but the last.
export function encodeUleb128(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}
