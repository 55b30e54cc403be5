// Public API of the Matchstick-compatible test runner. Explicit exports only.
export { runMatchstick } from "./run.js";
export type { RunOptions, RunSummary } from "./run.js";
export type { VerdictChange, Verdict } from "./strict.js";
export type { StoreSemantics } from "./matchstick/testStore.js";
export { createCompilePool } from "./compilePool.js";
export type { CompilePool } from "./compilePool.js";
