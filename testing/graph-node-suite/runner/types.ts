// A runner test of graph-node (tests/tests/runner_tests.rs), restated for an engine fed over JSON-RPC:
// its subgraph folder under tests/runner-tests, the manifest its deploy script builds, the blocks it
// feeds, and its assertions over the engine's APIs once the engine reached the stop block or failed.
import type { CaseContext } from "../types.js";
import type { RunnerBlock } from "./mockBlocks.js";

/** A runner test's view: the integration harness's, and the chain it feeds. */
export interface RunnerContext extends CaseContext {
  /**
   * Replaces the served chain by `blocks` (a branch from an earlier block), then waits until the engine
   * indexed the branch's head or failed: the fixture's `set_block_stream` plus `start_and_sync_to`.
   */
  reorgTo(blocks: RunnerBlock[]): Promise<void>;
}

export interface RunnerCase {
  /** The Rust test's name. */
  name: string;
  /** The folder under tests/runner-tests. */
  folder: string;
  /** The manifest the deploy script builds; `render` first writes it from a mustache template. */
  manifest: string;
  render?: { template: string; data: string };
  blocks: RunnerBlock[];
  /** graph-node's settings the Rust test changes (`EnvVars`), as its environment variables. */
  env?: Record<string, string>;
  /** What the Rust test asserts that a JSON-RPC engine cannot show, left out here. */
  omitted?: string;
  test(ctx: RunnerContext): Promise<void>;
}
