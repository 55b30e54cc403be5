// AssemblyScript Array<T> of pointers {buffer, dataStart, byteLength, length} in module memory; the
// elements are read or written by the caller's function.
import type { AscHeap } from "./heap.js";
import { TypeId } from "./typeIds.js";
import { checkRange, nullCheck } from "./memoryChecks.js";

export function createArrayCodec(heap: AscHeap) {
  const readArray = <T>(ptr: number, read: (elementPtr: number) => T): T[] => {
    nullCheck(ptr, "array");
    const dv = heap.views().dv;
    const dataStart = dv.getUint32(ptr + 4, true);
    const length = dv.getInt32(ptr + 12, true);
    checkRange(heap, dataStart, 4 * length, "array");
    const out: T[] = new Array<T>(length);
    for (let i = 0; i < length; i++) out[i] = read(heap.views().dv.getUint32(dataStart + 4 * i, true));
    return out;
  };

  const writeArray = <T>(arrayTypeId: number, items: readonly T[], write: (item: T) => number): number => {
    const pointers: number[] = new Array<number>(items.length);
    for (let i = 0; i < items.length; i++) pointers[i] = write(items[i]!);
    const buffer = heap.alloc(TypeId.ArrayBuffer, 4 * items.length, false);
    const ptr = heap.alloc(arrayTypeId, 16);
    const u32 = heap.views().u32;
    const base = buffer >>> 2;
    for (let i = 0; i < pointers.length; i++) u32[base + i] = pointers[i]!;
    const i = ptr >>> 2;
    u32[i] = buffer;
    u32[i + 1] = buffer;
    u32[i + 2] = 4 * items.length;
    u32[i + 3] = items.length;
    return ptr;
  };

  return { readArray, writeArray };
}
