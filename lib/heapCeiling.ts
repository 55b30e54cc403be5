// A lower ceiling on a thread's heap than V8 keeps by itself. V8 lets the old generation fill with
// garbage up to a limit it raises as the heap grows; for a thread that allocates a steady flood of
// short-lived data (the hasher's 2048-bit numbers, the main thread's decoded ranges and commits) that is
// hundreds of MiB of resident memory holding nothing. Checked at a quiet point (between blocks, after a
// commit): past the ceiling, a full collection, and the ceiling goes to twice what survived it.
import { getHeapStatistics } from "node:v8";
import { collectGarbage } from "./collectGarbage.js";

/** Returns the check to call at quiet points; `baseMiB` is the lowest ceiling. */
export function createHeapCeiling(baseMiB: number): () => void {
  const base = baseMiB * 1024 * 1024;
  let ceiling = base;
  return () => {
    if (getHeapStatistics().used_heap_size < ceiling) return;
    collectGarbage();
    ceiling = Math.max(base, 2 * getHeapStatistics().used_heap_size);
  };
}
