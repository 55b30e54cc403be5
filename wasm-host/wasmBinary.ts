// Reading a WebAssembly module's bytes: the unsigned LEB128 numbers its sections are made of.
import { HostError } from "./errors.js";

/** The unsigned LEB128 number at `at` (up to 35 bits) and where the next field starts. */
export function readU32(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let p = at, shift = 0; p < bytes.length && shift < 35; p++, shift += 7) {
    const b = bytes[p]!;
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return { value, next: p + 1 };
  }
  throw new HostError("LINK", `malformed WebAssembly module: bad LEB128 number at byte ${at}`);
}
