// What every group of Matchstick imports works with: the run's state, logger and schema (as Matchstick
// reads it), and the instance they are linked into (its codec).
import type { HostContext } from "../../wasm-host/index.js";
import { CriticalAbort } from "../errors.js";
import type { Logger } from "../logger.js";
import type { MockSchema } from "./mockSchema.js";
import type { MatchstickState } from "./state.js";

export interface MatchstickImportDeps {
  state: MatchstickState;
  logger: Logger;
  mockSchema: MockSchema;
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
}

/** Stops the run the way Matchstick's `logging::critical!` (a panic) does. */
export function critical(state: MatchstickState, logger: Logger, message: string): never {
  state.critical = message;
  logger.clearIndent();
  throw new CriticalAbort(message);
}

export function createLink(deps: MatchstickImportDeps, ctx: HostContext): MatchstickLink {
  const codec = ctx.codec;
  return { ...deps, ctx, codec, str: (ptr: number): string => codec.readString(ptr) };
}
