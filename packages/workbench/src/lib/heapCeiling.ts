// A lower ceiling on a thread's heap than V8 keeps by itself. V8 lets the old generation fill with
// garbage up to a limit it raises as the heap grows; for a thread that allocates a steady flood of
// short-lived data (the hasher's 2048-bit numbers, the main thread's decoded ranges and commits) that is
// hundreds of MiB of resident memory holding nothing. Checked at a quiet point (between blocks, after a
// commit): past the ceiling, a full collection, and the ceiling goes to what survived it times `growth`,
// but at least `minSlackMiB` above it and never below `floorMiB`.
import { getHeapStatistics } from "node:v8";
import { collectGarbage } from "./collectGarbage.js";
import { processSettingOff } from "./processSettingsOff.js";

export interface HeapCeilingOptions {
  /** The lowest ceiling, and the first. */
  floorMiB: number;
  /** The next ceiling as a multiple of what survived a collection (default 2). */
  growth?: number;
  /** The next ceiling at least this far above what survived (default 0). */
  minSlackMiB?: number;
}

export interface HeapProbe {
  usedBytes(): number;
  collect(): void;
}

const liveHeap: HeapProbe = { usedBytes: () => getHeapStatistics().used_heap_size, collect: collectGarbage };

/** Returns the check to call at quiet points. */
export function createHeapCeiling(options: HeapCeilingOptions, probe: HeapProbe = liveHeap): () => void {
  if (probe === liveHeap && processSettingOff("heap-ceilings")) return () => {};
  const MiB = 1024 * 1024;
  const floor = options.floorMiB * MiB;
  const growth = options.growth ?? 2;
  const minSlack = (options.minSlackMiB ?? 0) * MiB;
  let ceiling = floor;
  return () => {
    if (probe.usedBytes() < ceiling) return;
    probe.collect();
    const survived = probe.usedBytes();
    ceiling = Math.max(floor, survived * growth, survived + minSlack);
  };
}
