import { describe, expect, it } from "vitest";
import { ALL_HISTORY, historyBlocksFor } from "./historyBlocks.js";

const settings = { reorgThreshold: 250, minHistoryBlocks: 500, historyBlocksOverride: null };
const hinted = (prune: string | number | null) => ({ indexerHints: prune === null ? null : { prune } });

describe("historyBlocksFor (graph-node's precedence)", () => {
  it("follows the manifest's prune hint: auto, never, a number, none", () => {
    expect(historyBlocksFor(hinted("auto"), null, settings)).toBe(500);
    expect(historyBlocksFor(hinted("never"), null, settings)).toBe(ALL_HISTORY);
    expect(historyBlocksFor(hinted(40), null, settings)).toBe(40);
    expect(historyBlocksFor(hinted(null), null, settings)).toBe(ALL_HISTORY);
  });

  it("prefers subgraph_deploy's history_blocks, and the node's override above both", () => {
    expect(historyBlocksFor(hinted("auto"), 300, settings)).toBe(300);
    expect(historyBlocksFor(hinted("auto"), 300, { ...settings, historyBlocksOverride: 77 })).toBe(77);
  });
});
