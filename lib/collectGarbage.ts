// A full garbage collection on demand, for the rare moment when a large allocation has just become
// garbage that V8's heuristics would keep for long (WebAssembly memories are outside the JS heap, so
// their size does not hurry the collector). Uses `gc` when node runs with --expose-gc, else enables it
// the way Jest's --logHeapUsage does.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | null = null;

export function collectGarbage(): void {
  gc ??= (globalThis as { gc?: () => void }).gc ?? exposeGc();
  gc();
}

function exposeGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
