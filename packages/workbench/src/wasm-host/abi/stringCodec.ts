// AssemblyScript strings (UTF-16, byte length in the header) in module memory.
import type { AscHeap } from "./heap.js";
import { TypeId } from "./typeIds.js";
import { HostError } from "../errors.js";
import { checkRange, nullCheck } from "./memoryChecks.js";

const SHORT_STRING = 32;
const STRING_CHUNK = 8192;
/**
 * Strings read lately, by address: a handler hands the host the same field names (static data) and
 * the same id (an entity's id field and `store.set`'s argument) on every event. A hit is checked unit
 * by unit against memory, so it reads what a decode would, without making a new string.
 */
const READ_CACHE_SLOTS = 256;
/** Longer strings (a JSON document, say) are rarely read twice and would be held alive. */
const CACHED_UNITS_MAX = 256;

export function createStringCodec(heap: AscHeap) {
  const cachedAt = new Int32Array(READ_CACHE_SLOTS).fill(-1);
  const cached: string[] = new Array<string>(READ_CACHE_SLOTS).fill("");

  /** graph-node: `String::from_utf16` (a lone surrogate is an error), then NUL characters stripped. */
  const readString = (ptr: number): string => {
    nullCheck(ptr, "string");
    const { u16, dv } = heap.views();
    const n = dv.getUint32(ptr - 4, true) >>> 1;
    checkRange(heap, ptr, 2 * n, "string");
    if ((ptr & 1) !== 0) throw new HostError("MEMORY", `string at ${ptr} is not aligned`);
    const base = ptr >>> 1;
    const slot = (ptr >>> 4) & (READ_CACHE_SLOTS - 1);
    if (cachedAt[slot] === ptr && sameUnits(cached[slot]!, u16, base, n)) return cached[slot]!;
    const s = decode(u16, base, n);
    // Only strings read unchanged are kept, so that a hit means the memory holds exactly them.
    if (s.length === n && n <= CACHED_UNITS_MAX) {
      cachedAt[slot] = ptr;
      cached[slot] = s;
    }
    return s;
  };

  const writeString = (value: string): number => {
    const ptr = heap.alloc(TypeId.String, value.length * 2, false);
    const u16 = heap.views().u16;
    const base = ptr >>> 1;
    for (let i = 0; i < value.length; i++) u16[base + i] = value.charCodeAt(i);
    return ptr;
  };

  return { readString, writeString };
}

function sameUnits(s: string, u16: Uint16Array, base: number, n: number): boolean {
  if (s.length !== n) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) !== u16[base + i]) return false;
  return true;
}

/** `String::from_utf16` of n units at u16[base], then NUL characters stripped. */
function decode(u16: Uint16Array, base: number, n: number): string {
  let s = "";
  if (n <= SHORT_STRING) {
    for (let i = 0; i < n; i++) s += String.fromCharCode(u16[base + i]!);
  } else {
    // fromCharCode keeps lone surrogates (TextDecoder would replace them), so they can be rejected.
    for (let i = 0; i < n; i += STRING_CHUNK) {
      s += String.fromCharCode.apply(null, u16.subarray(base + i, base + Math.min(n, i + STRING_CHUNK)) as unknown as number[]);
    }
  }
  if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed()) {
    throw new HostError("CONVERSION", "invalid utf-16: lone surrogate found");
  }
  return s.includes("\u0000") ? s.replaceAll("\u0000", "") : s;
}
