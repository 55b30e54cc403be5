// Source maps a client hands the node for a deployment's mappings (the dev loop, which compiles them
// itself with `asc --sourceMap`): graph-cli's build carries none, so without one a trap is named by its
// wasm function only. Kept per deployment and data source, in memory, for the dashboard and the log.
import { describeFrames, sourceLocator, type SourceLocator } from "../../lib/wasmStack.js";
import type { FailureTrap } from "../indexer/index.js";

export interface SourceMapRegistry {
  /** Throws, saying why, when the text is no source map. */
  register(deployment: string, dataSource: string, sourceMapText: string): void;
  /** The trap's frames as a line: source positions where a map for its data source is registered. */
  describe(deployment: string, trap: FailureTrap): string;
}

export function createSourceMapRegistry(): SourceMapRegistry {
  const locators = new Map<string, SourceLocator>();
  const key = (deployment: string, dataSource: string) => `${deployment}\u0000${dataSource}`;
  return {
    register(deployment, dataSource, text) {
      let locate: SourceLocator;
      try {
        locate = sourceLocator(text);
      } catch (error) {
        throw new Error(`not a source map: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      locators.set(key(deployment, dataSource), locate);
    },
    describe(deployment, trap) {
      const locate = trap.dataSource === null ? undefined : locators.get(key(deployment, trap.dataSource));
      return describeFrames(trap.frames, locate);
    },
  };
}
