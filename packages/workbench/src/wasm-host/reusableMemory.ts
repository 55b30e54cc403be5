// A mapping module rewritten to import its linear memory instead of defining it, so that the host can
// start the mapping afresh on the same memory: zeroed, the data segments written again by the new
// instance, its runtime's heap pointer back at the start. AssemblyScript's stub runtime never frees, so
// one long-lived instance is replaced every few MiB; a replacement that defines a new memory leaves the
// old one (tens of MiB, outside V8's heap) for a full collection to find, which costs more than the
// handlers of the block it ends.
import { encodeUleb128 } from "../lib/leb128.js";
import { HostError } from "./errors.js";
import { MEMORY_SECTION, readLimits, readSections, readU32 } from "./wasmBinary.js";

const IMPORT_SECTION = 2;
const TYPE_SECTION = 1;
const MEMORY_KIND = 0x02;
const IMPORT_MODULE = "env";
const IMPORT_NAME = "memory";

/** Compiled modules whose memory the host provides, with the memory each instance is given. */
const reusable = new WeakMap<WebAssembly.Module, WebAssembly.MemoryDescriptor>();

/** The memory a module compiled by `compileWithReusableMemory` imports, or undefined. */
export function reusableMemoryOf(module: WebAssembly.Module): WebAssembly.MemoryDescriptor | undefined {
  return reusable.get(module);
}

/**
 * Compiles `bytes` with its one defined memory turned into an import the host provides (and reuses:
 * instance.ts). A module that imports its memory, defines none or several, or a shared or 64-bit one
 * is compiled as it is.
 *
 * Compiled on the calling thread: `WebAssembly.compile` queues its work for V8's helper threads, which
 * the local node keeps few and which are busy optimizing PGlite and collecting when a deployment starts;
 * a mapping's compile then waited about 250 ms for a helper to do 1 ms of work.
 */
export function compileWithReusableMemory(bytes: Uint8Array): WebAssembly.Module {
  const rewired = withImportedMemory(bytes);
  if (rewired === null) return new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  const module = new WebAssembly.Module(rewired.bytes as Uint8Array<ArrayBuffer>);
  reusable.set(module, rewired.memory);
  return module;
}

/** The module with its defined memory imported as `env.memory`, and that memory's limits; null if not applicable. */
export function withImportedMemory(bytes: Uint8Array): { bytes: Uint8Array; memory: WebAssembly.MemoryDescriptor } | null {
  const sections = readSections(bytes);
  const memorySection = sections.find((s) => s.id === MEMORY_SECTION);
  if (!memorySection) return null;
  const count = readU32(bytes, memorySection.content);
  if (count.value !== 1) return null;
  const limits = readLimits(bytes, count.next);
  // Shared or 64-bit: left as it is.
  if (limits.flags & 0x06) return null;
  if (limits.next !== memorySection.end) throw new HostError("LINK", "malformed WebAssembly module: memory section size mismatch");

  const importSection = sections.find((s) => s.id === IMPORT_SECTION);
  const existing = importSection ? readU32(bytes, importSection.content) : { value: 0, next: 0 };
  const entry = [...name(IMPORT_MODULE), ...name(IMPORT_NAME), MEMORY_KIND, ...bytes.subarray(count.next, limits.next)];
  const content = [...encodeUleb128(existing.value + 1), ...(importSection ? bytes.subarray(existing.next, importSection.end) : []), ...entry];
  const newImports = Uint8Array.from([IMPORT_SECTION, ...encodeUleb128(content.length), ...content]);

  // The import section goes where the old one was, else right after the type section (or the header).
  const typeSection = sections.find((s) => s.id === TYPE_SECTION);
  const insertAt = importSection ? importSection.start : (typeSection?.end ?? 8);
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let inserted = false;
  for (const section of sections) {
    if (!inserted && section.start >= insertAt) parts.push(newImports), (inserted = true);
    if (section !== importSection && section !== memorySection) parts.push(bytes.subarray(section.start, section.end));
  }
  if (!inserted) parts.push(newImports);
  return { bytes: Buffer.concat(parts), memory: { initial: limits.min, ...(limits.max === null ? {} : { maximum: limits.max }) } };
}

function name(s: string): number[] {
  const utf8 = Buffer.from(s, "utf8");
  return [...encodeUleb128(utf8.length), ...utf8];
}
