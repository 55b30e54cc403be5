// How many blocks of history a new deployment keeps (graph-node's history_blocks): the node's
// GRAPH_HISTORY_BLOCKS_OVERRIDE, else `subgraph_deploy`'s `history_blocks`, else the manifest's
// `indexerHints.prune` (`auto`: GRAPH_MIN_HISTORY_BLOCKS; `never` or no hint: all of it).
import type { LoadedDeployment } from "../manifest/index.js";
import { BLOCK_MAX, DEFAULT_PRUNING_POLICY } from "../store/index.js";

/** graph-node's BLOCK_NUMBER_MAX as history_blocks: history is never pruned. */
export const ALL_HISTORY = BLOCK_MAX;

export interface HistoryBlocksSettings {
  /** ETHEREUM_REORG_THRESHOLD: a graft block must be this far below its base's head. */
  reorgThreshold: number;
  /** GRAPH_MIN_HISTORY_BLOCKS: what `prune: auto` keeps (graph-node: twice the reorg threshold). */
  minHistoryBlocks: number;
  /** GRAPH_HISTORY_BLOCKS_OVERRIDE: every new deployment keeps this many, whatever it asks for. */
  historyBlocksOverride: number | null;
}

export const DEFAULT_HISTORY_BLOCKS: HistoryBlocksSettings = { reorgThreshold: DEFAULT_PRUNING_POLICY.reorgThreshold, minHistoryBlocks: 2 * DEFAULT_PRUNING_POLICY.reorgThreshold, historyBlocksOverride: null };

export function historyBlocksFor(loaded: Pick<LoadedDeployment, "indexerHints">, requested: number | null, settings: HistoryBlocksSettings): number {
  if (settings.historyBlocksOverride !== null) return settings.historyBlocksOverride;
  if (requested !== null) return requested;
  const prune = loaded.indexerHints?.prune ?? null;
  if (prune === null || prune === "never") return ALL_HISTORY;
  if (prune === "auto") return settings.minHistoryBlocks;
  return Number(prune);
}
