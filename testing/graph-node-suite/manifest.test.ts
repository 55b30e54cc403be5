import { describe, expect, it } from "vitest";
import { hasSubgraphDataSource, patchPlaceholders } from "./manifest.js";

describe("the harness's manifest patching", () => {
  it("replaces every occurrence of each placeholder", () => {
    const manifest = 'address: "@SimpleContract@"\nother: "@SimpleContract@"\nbase: \'@base@\'\nkeep: "@Unknown@"';
    expect(patchPlaceholders(manifest, [["SimpleContract", "0x5FbDB2315678afecb367f032d93F642f64180aa3"], ["base", "QmBase"]])).toBe(
      'address: "0x5FbDB2315678afecb367f032d93F642f64180aa3"\nother: "0x5FbDB2315678afecb367f032d93F642f64180aa3"\nbase: \'QmBase\'\nkeep: "@Unknown@"',
    );
  });

  it("finds subgraph data sources", () => {
    expect(hasSubgraphDataSource("dataSources:\n  - kind: ethereum/contract\n  - kind: subgraph\n")).toBe(true);
    expect(hasSubgraphDataSource("dataSources:\n  - kind: ethereum/contract\n")).toBe(false);
    expect(hasSubgraphDataSource("specVersion: 0.0.5\n")).toBe(false);
  });
});
