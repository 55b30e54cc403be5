// A full garbage collection on demand, for the rare moment when a large allocation has just become
// garbage that V8's heuristics would keep for long (WebAssembly memories are outside the JS heap, so
// their size does not hurry the collector). Uses `gc` when node runs with --expose-gc, else enables it
// the way Jest's --logHeapUsage does.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Gc = (options?: { type: "major"; execution: "sync"; flavor: "regular" | "last-resort" }) => void;

let gc: Gc | null = null;

/**
 * `regular` frees the garbage but keeps the pages it lived on for the heap to grow into again;
 * `last-resort` (V8's collection before running out of memory) also gives the empty pages back.
 */
export function collectGarbage(flavor: "regular" | "last-resort" = "regular"): void {
  gc ??= (globalThis as { gc?: Gc }).gc ?? exposeGc();
  if (flavor === "regular") gc();
  else gc({ type: "major", execution: "sync", flavor });
}

function exposeGc(): Gc {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as Gc;
}
