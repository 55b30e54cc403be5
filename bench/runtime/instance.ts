// Instantiates a mapping module and links the host imports by name.
import type { HostOptions, SubgraphInstance } from "./types.js";
import { HostLinkError } from "./errors.js";

/** Compiles (if needed), links every import by name and runs `_start` (apiVersion >= 0.0.5). */
export async function instantiateSubgraph(wasm: Uint8Array | WebAssembly.Module, options: HostOptions): Promise<SubgraphInstance> {
  void wasm;
  void options;
  throw new HostLinkError("instantiateSubgraph: implementation in progress");
}
