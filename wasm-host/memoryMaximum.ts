// Caps a module's linear memory by rewriting the maximum in its memory section. A module that defines
// its memory without a maximum (AssemblyScript's default) may grow it to 4 GiB, and V8 counts none of
// that against a thread's heap limit; with a maximum, `memory.grow` past it fails inside the module
// (AssemblyScript then traps with `unreachable`).
import { HostError } from "./errors.js";
import { encodeUleb128 } from "../lib/leb128.js";
import { readU32 } from "./wasmBinary.js";

/** Bytes in a WebAssembly page. */
export const WASM_PAGE_BYTES = 65536;
const MEMORY_SECTION = 5;

/**
 * The module with every memory it defines limited to `maxPages` (a smaller maximum it declares is kept).
 * A module whose initial memory is already past the cap is refused; one without a memory section comes
 * back unchanged (an imported memory is the importer's to bound).
 */
export function withMemoryMaximum(bytes: Uint8Array, maxPages: number): Uint8Array {
  if (bytes.length < 8) throw new HostError("LINK", "malformed WebAssembly module: shorter than its header");
  for (let p = 8; p < bytes.length; ) {
    const id = bytes[p]!;
    const size = readU32(bytes, p + 1);
    const end = size.next + size.value;
    if (id !== MEMORY_SECTION) {
      p = end;
      continue;
    }
    const count = readU32(bytes, size.next);
    const content = encodeUleb128(count.value);
    let q = count.next;
    for (let i = 0; i < count.value; i++) {
      // Limits: flags (bit 0: a maximum follows; bit 1 shared; bit 2 64-bit), minimum, [maximum].
      const flags = bytes[q]!;
      if (flags & 0x04) throw new HostError("LINK", "64-bit memories are not supported");
      const min = readU32(bytes, q + 1);
      q = min.next;
      let max = maxPages;
      if (flags & 0x01) {
        const declared = readU32(bytes, q);
        q = declared.next;
        max = Math.min(declared.value, maxPages);
      }
      if (min.value > max) {
        throw new HostError("MEMORY", `the mapping's initial memory of ${(min.value * WASM_PAGE_BYTES) / 2 ** 20} MB is past the limit of ${(max * WASM_PAGE_BYTES) / 2 ** 20} MB`);
      }
      content.push(flags | 0x01, ...encodeUleb128(min.value), ...encodeUleb128(max));
    }
    if (q !== end) throw new HostError("LINK", "malformed WebAssembly module: memory section size mismatch");
    const section = [MEMORY_SECTION, ...encodeUleb128(content.length), ...content];
    const out = new Uint8Array(p + section.length + (bytes.length - end));
    out.set(bytes.subarray(0, p), 0);
    out.set(section, p);
    out.set(bytes.subarray(end), p + section.length);
    return out;
  }
  return bytes;
}
