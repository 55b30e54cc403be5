// graph-ts enum-shaped objects {kind u32, pad u32, payload u64} (store Value, ethereum.Value,
// JSONValue) and TypedMap entries {key, value}, written into module memory.
import type { AscHeap } from "./heap.js";

/** An enum object with a 32-bit payload (a pointer or small value) in the low word. */
export function writeEnum(heap: AscHeap, typeId: number, kind: number, low: number, high = 0): number {
  const ptr = heap.alloc(typeId, 16);
  const u32 = heap.views().u32;
  const i = ptr >>> 2;
  u32[i] = kind;
  u32[i + 2] = low >>> 0;
  u32[i + 3] = high >>> 0;
  return ptr;
}

/** An enum object with a 64-bit integer payload (Int8, Timestamp). */
export function writeEnumI64(heap: AscHeap, typeId: number, kind: number, value: bigint): number {
  const ptr = heap.alloc(typeId, 16);
  const dv = heap.views().dv;
  dv.setUint32(ptr, kind, true);
  dv.setBigInt64(ptr + 8, BigInt.asIntN(64, value), true);
  return ptr;
}
