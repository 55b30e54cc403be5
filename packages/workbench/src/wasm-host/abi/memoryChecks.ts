// Checks on pointers and lengths read from module memory, shared by every codec family.
import type { AscHeap } from "./heap.js";
import { HostError } from "../errors.js";

/** Throws a MEMORY error for a null pointer where an object is required. */
export function nullCheck(ptr: number, what: string): void {
  if (ptr === 0) throw new HostError("MEMORY", `unexpected null ${what} pointer`);
}

/** A corrupt pointer or length must fail deterministically, not read past memory (graph-node checks too). */
export function checkRange(heap: AscHeap, start: number, length: number, what: string): void {
  if (length < 0 || start + length > heap.views().u8.byteLength) {
    throw new HostError("MEMORY", `${what} at ${start} with length ${length} is out of bounds of module memory`);
  }
}
