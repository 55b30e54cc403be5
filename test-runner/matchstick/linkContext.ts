// What every group of Matchstick imports works with: the run's state, logger and schema, and the
// instance they are linked into (its codec and store).
import type { HostContext } from "../../wasm-host/index.js";
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import { CriticalAbort } from "../errors.js";
import type { Logger } from "../logger.js";
import type { MatchstickState } from "./state.js";

export interface MatchstickImportDeps {
  state: MatchstickState;
  logger: Logger;
  schema: SubgraphSchema;
  /** Project root: relative paths in readFile/mockIpfsFile resolve here (Matchstick's cwd). */
  root: string;
}

/** Host functions by import name, as the host's `extraImports` takes them. */
export type ImportGroup = Record<string, (...args: any[]) => any>;

/** The deps with one instance's context, and helpers over its codec. */
export interface MatchstickLink extends MatchstickImportDeps {
  readonly ctx: HostContext;
  readonly codec: HostContext["codec"];
  /** Reads an AssemblyScript string. */
  readonly str: (ptr: number) => string;
  /** Moves the instance's pending writes into the backend (before reading the backend). */
  readonly sync: () => void;
}

/** Stops the run the way Matchstick's `logging::critical!` (a panic) does. */
export function critical(state: MatchstickState, logger: Logger, message: string): never {
  state.critical = message;
  logger.clearIndent();
  throw new CriticalAbort(message);
}

export function syncStore(ctx: HostContext, state: MatchstickState): void {
  const changes = ctx.store.takeChanges();
  if (changes.length > 0) state.backend.apply(changes, ctx.store.block?.number);
}

export function createLink(deps: MatchstickImportDeps, ctx: HostContext): MatchstickLink {
  const { state, logger, schema, root } = deps;
  const codec = ctx.codec;
  return {
    state,
    logger,
    schema,
    root,
    ctx,
    codec,
    str: (ptr: number): string => codec.readString(ptr),
    sync: (): void => syncStore(ctx, state),
  };
}
