// Figures for `npm run bench:runner` (printed, never asserted): cold compile time per test file,
// the warm run with nothing changed, and ApprovalHandler calls per second through the host and store.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runApprovalBench } from "../wasm-host/approvalHandler.bench.js";
import { createCompiler } from "./compile.js";
import { resolveConfig } from "./config.js";
import { discoverTests } from "./discover.js";
import { runMatchstick } from "./run.js";

export interface CompileFigure {
  file: string;
  ms: number;
}

/** Compiles every test file into a scratch folder (the project's cache is untouched). */
export async function benchColdCompile(root: string): Promise<{ loadMs: number; files: CompileFigure[] }> {
  const config = resolveConfig(root);
  const out = mkdtempSync(join(tmpdir(), "runner-bench-"));
  try {
    const t0 = performance.now();
    const compiler = await createCompiler({ root: config.root, libsFolder: config.libsFolder });
    const loadMs = performance.now() - t0;
    const files: CompileFigure[] = [];
    for (const file of discoverTests(config.testsFolder)) {
      const started = performance.now();
      const result = await compiler.compile(file.path, join(out, `${file.name.replace(/\//g, "_")}.wasm`));
      if (!result.ok) throw new Error(`${file.name} did not compile:\n${result.diagnostics}`);
      files.push({ file: file.name, ms: performance.now() - started });
    }
    return { loadMs, files };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A run of the whole suite in-process; call it after a run that filled the cache. */
export async function benchWarmRun(root: string): Promise<{ ms: number; passed: number; failed: number; compiled: number }> {
  const started = performance.now();
  const summary = await runMatchstick({ root, patterns: [], coverage: false, recompile: false, color: false, write: () => {} });
  return { ms: performance.now() - started, passed: summary.passed, failed: summary.failed, compiled: summary.compiled.length };
}

/** ApprovalHandler through the host and an in-memory store: the host's own bench loop, reused. */
export async function benchHandler(wasm: Uint8Array | WebAssembly.Module, schemaSdl: string, events: number, eventsPerBlock: number) {
  return runApprovalBench({ wasm, schemaSdl, handler: "ApprovalHandler", events, eventsPerBlock });
}

/** The first `.wasm` under a graph-cli build folder. */
export function findBuiltWasm(buildDir: string): Buffer<ArrayBuffer> {
  const walk = (dir: string): string | null => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (entry.name.endsWith(".wasm")) return full;
    }
    return null;
  };
  const file = walk(buildDir);
  if (file === null) throw new Error(`no wasm under ${buildDir}`);
  return readFileSync(file);
}
