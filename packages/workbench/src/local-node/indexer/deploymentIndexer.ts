// Indexes one deployment: from its start block (or stored pointer) to the chain head and then
// following it. Each block's changes are committed with the block pointer in one store transaction;
// reorgs revert to the common ancestor; a deterministic handler failure marks the deployment failed.
// The work is split by concern: indexerContext (options and state), indexingLoop (the loop and its
// steps), jobRunner (handlers and commits), rangePrefetch, reorgHandling, watchdog, hostWorkerStart.
import type { BlockPtr } from "../../wasm-host/index.js";
import { maskUrl } from "../../lib/redact.js";
import { createIndexerContext, type DeploymentIndexerOptions, type DeploymentState, type FailureTrap, type StartedFrom } from "./indexerContext.js";
import { runIndexingLoop } from "./indexingLoop.js";
import { asDeployment } from "./chainOrigin.js";

export type { DeploymentIndexerOptions, DeploymentState } from "./indexerContext.js";

export interface DeploymentIndexer {
  readonly id: string;
  readonly state: DeploymentState;
  readonly pointer: BlockPtr | null;
  /** Where in the mapping its deterministic failure happened, when it failed in this process. */
  readonly failureTrap: FailureTrap | null;
  /** When it started indexing here and from which block; null until it read its pointer. */
  readonly startedFrom: StartedFrom | null;
  /** Starts the loop; resolves when it ends (stop, failure). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createDeploymentIndexer(options: DeploymentIndexerOptions): DeploymentIndexer {
  const ctx = createIndexerContext(options);
  let running: Promise<void> | null = null;
  return {
    id: ctx.id,
    get state() {
      return ctx.state;
    },
    get pointer() {
      return ctx.pointer;
    },
    get failureTrap() {
      return ctx.failureTrap;
    },
    get startedFrom() {
      return ctx.startedFrom;
    },
    start() {
      // The loop, its worker's requests and its prefetches all run as this deployment's (eth_rpc metrics).
      running ??= (options.instrumentation === false ? runIndexingLoop(ctx) : asDeployment(ctx.id, () => runIndexingLoop(ctx))).catch((err: unknown) => {
        ctx.state = "stopped";
        ctx.log("error", `indexing stopped: ${err instanceof Error ? err.message : String(err)} (rpc ${maskUrl(ctx.rpc.displayUrl)})`);
      });
      return running;
    },
    async stop() {
      ctx.stopping = true;
      ctx.wake?.();
      await running;
    },
  };
}
