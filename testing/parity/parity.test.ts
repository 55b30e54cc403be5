// The parity suite in `npm test`: each built-in case on the local node and on the real graph-node (gnd
// from npm), compared. Fails on any difference not listed, with its reason, in accepted-differences.json.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { findGndBinary } from "subgraph-workbench/graph-node";
import { projectRoot } from "../../hardhat/projectRoot.js";
import { formatReport, KNOWN_DIFFERENCES, readAcceptedDifferences, runParityCase } from "subgraph-workbench/parity";
import { startHardhatNode } from "../../hardhat/chain/index.js";
import { builtInCases } from "./cases/index.js";

vi.setConfig({ testTimeout: 600_000 });

const gndAvailable = process.platform === "linux" && process.arch === "x64";

describe.runIf(gndAvailable)("parity with graph-node", () => {
  for (const parityCase of builtInCases()) {
    it(`${parityCase.name}: no difference beyond the accepted ones`, async () => {
      const accepted = [...KNOWN_DIFFERENCES, ...(await readAcceptedDifferences(join(import.meta.dirname, "accepted-differences.json")))];
      const report = await runParityCase(parityCase, { accepted, startChain: () => startHardhatNode() });
      console.log(formatReport(report));
      expect(report.comparisons).toBeGreaterThan(20);
      expect(report.differences).toEqual([]);
    });
  }
});

describe("the graph-node binary", () => {
  it("is found on linux-x64, and elsewhere its absence is said clearly", () => {
    if (gndAvailable) expect(existsSync(findGndBinary())).toBe(true);
    else expect(() => findGndBinary()).toThrow(/linux-x64 only/);
    expect(() => findGndBinary("darwin", "arm64")).toThrow("graph-node (gnd) is on npm for linux-x64 only, and this machine is darwin-arm64");
  });
});
