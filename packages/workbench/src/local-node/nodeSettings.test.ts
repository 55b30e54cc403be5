import { describe, expect, it } from "vitest";
import { nodeSettingsFromEnv } from "./index.js";

describe("nodeSettingsFromEnv (graph-node's setting names, as npm start and npm run local-node read them)", () => {
  it("reads each setting and leaves graph-node's defaults otherwise", () => {
    expect(nodeSettingsFromEnv({})).toEqual({ versionSwitching: "instant", history: {} });
    expect(
      nodeSettingsFromEnv({
        GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH: "true",
        EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE: "synced",
        GRAPH_DISABLE_FAIL_FAST: "true",
        ETHEREUM_REORG_THRESHOLD: "10",
      }),
    ).toEqual({ allowFulltextSearch: true, versionSwitching: "synced", disableFailFast: true, history: { reorgThreshold: 10 } });
  });

  it("names a setting it cannot take", () => {
    expect(() => nodeSettingsFromEnv({ EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE: "later" })).toThrow('EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE must be instant or synced, not "later"');
  });
});
