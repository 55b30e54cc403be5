// The engines `npm run bench:peers` runs, one entry each: an engine is a function from the prepared chain
// and its workload to a run (figure, rows, log). Adding an engine is one line here and its name in engineNames.ts.
import type { EngineOptions, EngineRun } from "./engineRun.js";
import type { EngineName } from "./engineNames.js";
import { runEnvio } from "./envio.js";
import { runGraphNode } from "./graphNode.js";
import { runOurs } from "./ours.js";
import { runPonder } from "./ponder.js";
import { runSubsquid } from "./subsquid.js";
import type { PeerChain, Workload } from "./workload.js";

export type EngineRunner = (chain: PeerChain, workload: Workload, options: EngineOptions) => Promise<EngineRun>;

export interface EngineEntry {
  run: EngineRunner;
  /** Runs in the first round only (its runs take minutes, and one is enough for its ratio). */
  once?: true;
}

export const ENGINE_TABLE = {
  ours: { run: runOurs },
  ponder: { run: runPonder },
  "graph-node": { run: runGraphNode, once: true },
  subsquid: { run: runSubsquid },
  envio: { run: runEnvio },
} satisfies Record<EngineName, EngineEntry>;

export { ENGINES, type EngineName } from "./engineNames.js";
export type { EngineOptions } from "./engineRun.js";
export const engineEntry = (name: EngineName): EngineEntry => ENGINE_TABLE[name];
