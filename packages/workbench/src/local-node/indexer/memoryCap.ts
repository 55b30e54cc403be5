// The worker's mappings, compiled again with their linear memory capped: V8's heap limit on the thread
// does not cover WebAssembly memory, so a mapping that allocates without end would otherwise grow to
// wasm32's 4 GiB before it fails.
import { compileWithReusableMemory, WASM_PAGE_BYTES, withMemoryMaximum } from "../../wasm-host/index.js";
import type { WorkerDataSource, WorkerTemplate } from "./hostProtocol.js";

export function capMappingMemory(
  dataSources: WorkerDataSource[],
  templates: WorkerTemplate[],
  maxMemoryMb: number,
): { dataSources: WorkerDataSource[]; templates: WorkerTemplate[] } {
  const maxPages = (maxMemoryMb * 2 ** 20) / WASM_PAGE_BYTES;
  // One capped module per original: the runtime shares an instance among data sources of one module.
  const capped = new Map<WebAssembly.Module, WebAssembly.Module>();
  const cap = <T extends WorkerDataSource | WorkerTemplate>(m: T): T => {
    if (!m.wasmBytes) return m;
    let module = capped.get(m.wasmModule);
    if (!module) capped.set(m.wasmModule, (module = compileWithReusableMemory(withMemoryMaximum(m.wasmBytes, maxPages))));
    return { ...m, wasmModule: module };
  };
  return { dataSources: dataSources.map(cap), templates: templates.map(cap) };
}
