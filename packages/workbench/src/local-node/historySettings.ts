// graph-node's history settings, by its environment names: what the store prunes with and what a new
// deployment keeps. ETHEREUM_REORG_THRESHOLD (250; `gnd dev` forces 10), GRAPH_STORE_HISTORY_SLACK_FACTOR
// (1.2, above 1.01), GRAPH_MIN_HISTORY_BLOCKS (`prune: auto`; twice the reorg threshold) and
// GRAPH_HISTORY_BLOCKS_OVERRIDE (every new deployment keeps that many).
import { BaseError } from "../lib/errors.js";
import type { HistoryBlocksSettings } from "./admin/index.js";
import { BLOCK_MAX, DEFAULT_PRUNING_POLICY, type PruningPolicy } from "./store/index.js";

export type HistorySettings = PruningPolicy & HistoryBlocksSettings;

export class HistorySettingsError extends BaseError {
  override name = "HistorySettingsError";
}

/** Every setting, graph-node's defaults for those not given. */
export function resolveHistorySettings(given: Partial<HistorySettings> = {}): HistorySettings {
  const reorgThreshold = given.reorgThreshold ?? DEFAULT_PRUNING_POLICY.reorgThreshold;
  return {
    reorgThreshold,
    slackFactor: given.slackFactor ?? DEFAULT_PRUNING_POLICY.slackFactor,
    minHistoryBlocks: given.minHistoryBlocks ?? 2 * reorgThreshold,
    historyBlocksOverride: given.historyBlocksOverride ?? null,
  };
}

export function historySettingsFromEnv(env: NodeJS.ProcessEnv): Partial<HistorySettings> {
  const settings: Partial<HistorySettings> = {};
  const reorgThreshold = blockCount(env, "ETHEREUM_REORG_THRESHOLD");
  if (reorgThreshold !== undefined) settings.reorgThreshold = reorgThreshold;
  const minHistoryBlocks = blockCount(env, "GRAPH_MIN_HISTORY_BLOCKS");
  if (minHistoryBlocks !== undefined) settings.minHistoryBlocks = minHistoryBlocks;
  const override = blockCount(env, "GRAPH_HISTORY_BLOCKS_OVERRIDE");
  if (override !== undefined) settings.historyBlocksOverride = override;
  const slack = env.GRAPH_STORE_HISTORY_SLACK_FACTOR;
  if (slack !== undefined && slack !== "") {
    const factor = Number(slack);
    // graph-node's own bound: a factor this close to 1 would prune after nearly every block.
    if (!Number.isFinite(factor) || factor < 1.01) throw new HistorySettingsError(`GRAPH_STORE_HISTORY_SLACK_FACTOR must be a number of at least 1.01, not ${JSON.stringify(slack)}`);
    settings.slackFactor = factor;
  }
  return settings;
}

function blockCount(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > BLOCK_MAX) throw new HistorySettingsError(`${name} must be a number of blocks, not ${JSON.stringify(raw)}`);
  return n;
}
