import { describe, expect, it } from "vitest";
import { historySettingsFromEnv, resolveHistorySettings } from "./historySettings.js";

describe("history settings (graph-node's names and defaults)", () => {
  it("defaults to graph-node's: reorg threshold 250, slack 1.2, auto keeps twice the threshold", () => {
    expect(resolveHistorySettings()).toEqual({ reorgThreshold: 250, slackFactor: 1.2, minHistoryBlocks: 500, historyBlocksOverride: null });
    expect(resolveHistorySettings(historySettingsFromEnv({ ETHEREUM_REORG_THRESHOLD: "10" }))).toMatchObject({ reorgThreshold: 10, minHistoryBlocks: 20 });
  });

  it("reads every setting, and refuses values graph-node refuses", () => {
    expect(historySettingsFromEnv({ GRAPH_MIN_HISTORY_BLOCKS: "64", GRAPH_HISTORY_BLOCKS_OVERRIDE: "1000", GRAPH_STORE_HISTORY_SLACK_FACTOR: "1.5" })).toEqual({ minHistoryBlocks: 64, historyBlocksOverride: 1000, slackFactor: 1.5 });
    expect(() => historySettingsFromEnv({ GRAPH_STORE_HISTORY_SLACK_FACTOR: "1.001" })).toThrow("GRAPH_STORE_HISTORY_SLACK_FACTOR must be a number of at least 1.01, not \"1.001\"");
    expect(() => historySettingsFromEnv({ ETHEREUM_REORG_THRESHOLD: "ten" })).toThrow('ETHEREUM_REORG_THRESHOLD must be a number of blocks, not "ten"');
  });
});
