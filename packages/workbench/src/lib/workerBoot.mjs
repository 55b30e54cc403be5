// Loads a worker thread's entry module (`workerData.entry`, a file URL). When the project runs from
// TypeScript sources (tsx, vitest), the thread needs tsx's loader registered before it can import a .ts file.
// A namespace import: Node 20 has no compile cache, and a named import of it would not load there.
import * as nodeModule from "node:module";
import { workerData } from "node:worker_threads";

if (workerData.entry.endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
} else {
  // Compiled JavaScript: V8's code cache on disk spares the next thread compiling its modules again.
  nodeModule.enableCompileCache?.();
}
await import(workerData.entry);
nodeModule.flushCompileCache?.();
