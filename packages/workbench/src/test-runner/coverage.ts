// Coverage mode (`-c`), as Matchstick decides it: each compiled test wasm is turned into text with
// wabt's wasm2wat (matchstick-as ships wabt), and a manifest handler counts as tested when some
// line of some test's text matches `call.+<handler>` — a call instruction naming the handler's function.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { requireFromWorkbench } from "../lib/packageRoot.js";
import type { ManifestSource } from "./manifest.js";

export interface SourceCoverage {
  name: string;
  handlers: { handler: string; tested: boolean }[];
  called: number;
  total: number;
}

export interface CoverageReport {
  sources: SourceCoverage[];
  called: number;
  total: number;
}

interface WabtModule {
  readWasm(bytes: Uint8Array, options: Record<string, boolean>): {
    generateNames(): void;
    applyNames(): void;
    toText(options: { foldExprs: boolean; inlineExport: boolean }): string;
    destroy(): void;
  };
}

function locateWabt(libsFolder: string): string {
  const own = join(libsFolder, "wabt", "index.js");
  if (existsSync(own)) return own;
  try {
    return requireFromWorkbench.resolve("wabt");
  } catch (cause) {
    throw new Error(`coverage needs wabt (matchstick-as ships it), and neither ${libsFolder} nor the workbench has it: install matchstick-as`, { cause });
  }
}

const WASM2WAT_FEATURES = { mutable_globals: true, sat_float_to_int: true, sign_extension: true, multi_value: true, bulk_memory: true, reference_types: true };

/** wasm2wat with debug names, as `wabt/bin/wasm2wat <file>` prints it. */
export async function wasmToWat(libsFolder: string, wasm: Uint8Array): Promise<string> {
  const path = locateWabt(libsFolder);
  const init = createRequire(path)(path) as () => Promise<WabtModule>;
  const wabt = await init();
  // The features wasm2wat enables by default (the JS API enables none); asc emits sign-extension ops.
  const module = wabt.readWasm(wasm, { readDebugNames: true, ...WASM2WAT_FEATURES });
  try {
    module.generateNames();
    module.applyNames();
    return module.toText({ foldExprs: false, inlineExport: false });
  } finally {
    module.destroy();
  }
}

/** Matchstick's test: the regex `call.+<handler>` (handler inserted unescaped, `.` stops at newlines). */
export function isCalled(wat: string, handler: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`call.+${handler}`);
  } catch {
    re = new RegExp(`call.+${handler.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
  }
  return re.test(wat);
}

export function coverageOf(sources: ManifestSource[], wats: string[]): CoverageReport {
  const report: CoverageReport = { sources: [], called: 0, total: 0 };
  for (const source of sources) {
    const handlers = source.handlers.map((handler) => ({ handler, tested: wats.some((wat) => isCalled(wat, handler)) }));
    const called = handlers.filter((h) => h.tested).length;
    report.sources.push({ name: source.name, handlers, called, total: handlers.length });
    report.called += called;
    report.total += handlers.length;
  }
  return report;
}

/** `X%` with one decimal, 0 when there are no handlers (Matchstick's `{:.1}`). */
export function percent(called: number, total: number): string {
  return (total > 0 ? (called * 100) / total : 0).toFixed(1);
}

export async function coverageForWasmFiles(libsFolder: string, sources: ManifestSource[], wasmFiles: string[]): Promise<CoverageReport> {
  const wats: string[] = [];
  for (const file of wasmFiles) wats.push(await wasmToWat(libsFolder, readFileSync(file)));
  return coverageOf(sources, wats);
}
