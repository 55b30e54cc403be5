// Caps a module's linear memory by rewriting the maximum in its memory section. A module that defines
// its memory without a maximum (AssemblyScript's default) may grow it to 4 GiB, and V8 counts none of
// that against a thread's heap limit; with a maximum, `memory.grow` past it fails inside the module
// (AssemblyScript then traps with `unreachable`).
import { HostError } from "./errors.js";
import { encodeUleb128 } from "../lib/leb128.js";
import { MEMORY_SECTION, readLimits, readSections, readU32 } from "./wasmBinary.js";

/** Bytes in a WebAssembly page. */
export const WASM_PAGE_BYTES = 65536;

/**
 * The module with every memory it defines limited to `maxPages` (a smaller maximum it declares is kept).
 * A module whose initial memory is already past the cap is refused; one without a memory section comes
 * back unchanged (an imported memory is the importer's to bound).
 */
export function withMemoryMaximum(bytes: Uint8Array, maxPages: number): Uint8Array {
  const section = readSections(bytes).find((s) => s.id === MEMORY_SECTION);
  if (!section) return bytes;
  const count = readU32(bytes, section.content);
  const content = encodeUleb128(count.value);
  let q = count.next;
  for (let i = 0; i < count.value; i++) {
    const limits = readLimits(bytes, q);
    if (limits.flags & 0x04) throw new HostError("LINK", "64-bit memories are not supported");
    q = limits.next;
    const max = limits.max === null ? maxPages : Math.min(limits.max, maxPages);
    if (limits.min > max) {
      throw new HostError("MEMORY", `the mapping's initial memory of ${(limits.min * WASM_PAGE_BYTES) / 2 ** 20} MB is past the limit of ${(max * WASM_PAGE_BYTES) / 2 ** 20} MB`);
    }
    content.push(limits.flags | 0x01, ...encodeUleb128(limits.min), ...encodeUleb128(max));
  }
  if (q !== section.end) throw new HostError("LINK", "malformed WebAssembly module: memory section size mismatch");
  const rewritten = [MEMORY_SECTION, ...encodeUleb128(content.length), ...content];
  return Buffer.concat([bytes.subarray(0, section.start), Uint8Array.from(rewritten), bytes.subarray(section.end)]);
}
