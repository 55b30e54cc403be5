// Reading a WebAssembly module's bytes: its sections, the unsigned LEB128 numbers they are made of, and
// a memory's limits.
import { readUleb128 } from "../lib/leb128.js";
import { HostError } from "./errors.js";

export const MEMORY_SECTION = 5;

/** The unsigned LEB128 number at `at` (up to 35 bits) and where the next field starts. */
export function readU32(bytes: Uint8Array, at: number): { value: number; next: number } {
  const read = readUleb128(bytes, at, 5);
  if (read) return read;
  throw new HostError("LINK", `malformed WebAssembly module: bad LEB128 number at byte ${at}`);
}

export interface WasmSection {
  id: number;
  /** Where the section starts (its id byte) and ends, in the module. */
  start: number;
  end: number;
  /** Where its content starts. */
  content: number;
}

/** The module's sections in order, after its 8-byte header. */
export function readSections(bytes: Uint8Array): WasmSection[] {
  if (bytes.length < 8) throw new HostError("LINK", "malformed WebAssembly module: shorter than its header");
  const sections: WasmSection[] = [];
  for (let p = 8; p < bytes.length; ) {
    const size = readU32(bytes, p + 1);
    const end = size.next + size.value;
    if (end > bytes.length) throw new HostError("LINK", `malformed WebAssembly module: section at byte ${p} runs past the end`);
    sections.push({ id: bytes[p]!, start: p, end, content: size.next });
    p = end;
  }
  return sections;
}

/** Limits as encoded: flags (bit 0: a maximum follows; bit 1: shared; bit 2: 64-bit), minimum, [maximum]. */
export function readLimits(bytes: Uint8Array, at: number): { flags: number; min: number; max: number | null; next: number } {
  const flags = bytes[at]!;
  const min = readU32(bytes, at + 1);
  if (!(flags & 0x01)) return { flags, min: min.value, max: null, next: min.next };
  const max = readU32(bytes, min.next);
  return { flags, min: min.value, max: max.value, next: max.next };
}
