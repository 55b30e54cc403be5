import { describe, expect, it } from "vitest";
import { formatReport, summarise, targetsOf, type EngineFigure } from "./report.js";

const approvals = { name: "approvals", eventsLabel: "Approval events", targets: { events: 100_000, smallChainEvents: 1200 } } as const;
const uniswapV3 = { name: "uniswap-v3", eventsLabel: "Uniswap v3 Swap events", targets: { events: 100_000 } } as const;

const figure = (engine: EngineFigure["engine"], indexingSeconds: number, coldSeconds: number, peakMiB: number, events = 1200): EngineFigure => ({
  engine,
  events,
  indexingSeconds,
  coldSeconds,
  cpuSeconds: 2,
  peakMiB,
  phases: [{ label: "all", seconds: coldSeconds }],
  parts: [],
  processes: [],
});

/** A figure on the 100,000-event chain the issue sets its main targets for. */
const large = (engine: EngineFigure["engine"], indexingSeconds: number, coldSeconds: number, peakMiB: number) => figure(engine, indexingSeconds, coldSeconds, peakMiB, 100_000);

describe("targetsOf", () => {
  it("measures issue 54's targets against every peer that ran, and the small chain's on approvals", () => {
    const targets = targetsOf([large("ours", 1, 5, 250), large("ponder", 4, 12, 600), large("graph-node", 20, 9, 100)], approvals);
    expect(targets.map((t) => [t.label, t.value, t.goal])).toEqual([
      ["indexing ≥ 3× ponder", 4, 3],
      ["cold end to end ≥ 2× ponder", 2.4, 2],
      ["our peak memory below ponder's (600 MiB)", 250, 600],
      ["indexing ≥ 3× graph-node", 20, 3],
      ["cold end to end ≥ 2× graph-node", 1.8, 2],
      ["our peak memory below graph-node's (100 MiB)", 250, 100],
      ["cold end to end ≥ 2× graph-node on the 1,200-event chain", 1.8, 2],
    ]);
    expect(targets.filter((t) => t.note).map((t) => [t.label, t.note])).toEqual([
      ["cold end to end ≥ 2× graph-node on the 1,200-event chain", "the issue sets it for 1,200 events; this run has 100,000"],
    ]);
  });

  it("sets no small-chain target on the Uniswap v3 swaps", () => {
    const targets = targetsOf([large("ours", 1, 5, 250), large("graph-node", 20, 9, 100)], uniswapV3);
    expect(targets.map((t) => t.label)).toEqual(["indexing ≥ 3× graph-node", "cold end to end ≥ 2× graph-node", "our peak memory below graph-node's (100 MiB)"]);
  });

  it("says which targets the small chain does not measure", () => {
    const small = targetsOf([figure("ours", 1, 5, 250), figure("graph-node", 20, 9, 100)], approvals);
    expect(small.filter((t) => t.note === undefined).map((t) => t.label)).toEqual(["cold end to end ≥ 2× graph-node on the 1,200-event chain"]);
    expect(small[0]!.note).toBe("the issue sets it for 100,000 events; this run has 1,200");
  });

  it("leaves a peer's targets unmeasured when it was asked for but did not run", () => {
    const targets = targetsOf([large("ours", 1, 5, 250), large("ponder", 4, 12, 600)], uniswapV3, ["ponder", "graph-node"]);
    expect(targets.filter((t) => t.value === null).map((t) => t.label)).toEqual(["indexing ≥ 3× graph-node", "cold end to end ≥ 2× graph-node", "our peak memory below graph-node's"]);
  });
});

describe("formatReport", () => {
  it("prints the workload, the table, the ratios and which targets are met, not met or not measured", () => {
    const text = formatReport([large("ours", 1, 5, 650), large("ponder", 4, 12, 600)], approvals, ["ponder", "graph-node"]);
    expect(text).toContain("workload approvals: 100,000 Approval events");
    expect(text).toMatch(/^ours\s+100,000\s+1\.00\s+5\.0\s+2\.0\s+650$/m);
    expect(text).toMatch(/^ponder\s+4\.00×\s+2\.40×\s+1\.00×\s+0\.92×$/m);
    expect(text).toContain("issue 54's targets on approvals:");
    expect(text).toMatch(/^ {2}met\s+indexing ≥ 3× ponder: 4\.00×$/m);
    expect(text).toMatch(/^ {2}NOT met\s+our peak memory below ponder's \(600 MiB\): 650 MiB$/m);
    expect(text).toMatch(/^ {2}not measured\s+indexing ≥ 3× graph-node: -$/m);
    expect(text).toMatch(/^ {2}not measured\s+cold end to end ≥ 2× graph-node on the 1,200-event chain: - \(the issue sets it for 1,200 events/m);
  });

  it("shows a target set for another chain size without judging it", () => {
    const text = formatReport([figure("ours", 1, 5, 250), figure("ponder", 4, 12, 600)], approvals, ["ponder"]);
    expect(text).toMatch(/^ {2}not judged\s+indexing ≥ 3× ponder: 4\.00× \(the issue sets it for 100,000 events; this run has 1,200\)$/m);
    expect(text).not.toMatch(/^ {2}(met|NOT met)\s+indexing ≥ 3× ponder/m);
  });
});

describe("rounds", () => {
  const rounds = [
    { ...figure("ours", 1, 5, 280), round: 1 },
    { ...figure("ponder", 3.3, 12, 600), round: 1 },
    { ...figure("ours", 1.2, 6, 310), round: 2 },
    { ...figure("ponder", 3, 11, 650), round: 2 },
    { ...figure("ours", 1.1, 4, 290), round: 3 },
    { ...figure("ponder", 3.6, 13, 620), round: 3 },
    figure("graph-node", 40, 50, 500),
  ];

  it("summarises each engine by its medians and its highest peak", () => {
    expect(summarise(rounds).map((f) => [f.engine, f.indexingSeconds, f.coldSeconds, f.peakMiB, f.round])).toEqual([
      ["ours", 1.1, 5, 310, undefined],
      ["ponder", 3.3, 12, 650, undefined],
      ["graph-node", 40, 50, 500, undefined],
    ]);
  });

  it("reads the targets on the medians, and prints every round with its ratio", () => {
    const targets = targetsOf(rounds, approvals);
    expect(targets[0]!.value).toBeCloseTo(3);
    expect(targets[2]!.value).toBe(310);
    const text = formatReport(rounds, approvals);
    expect(text).toMatch(/^ours #2\s+1,000\s+1\.20\s/m);
    expect(text).toMatch(/^ponder \(median; highest peak\)\s+364\s+3\.30\s+12\.0\s+2\.0\s+650$/m);
    expect(text).toContain("indexing ours/ponder round by round: 3.30×, 2.50×, 3.27×");
    // graph-node ran once: its one row, no median line and no round-by-round ratio.
    expect(text).toMatch(/^graph-node\s+30\s+40\.00\s/m);
    expect(text).not.toContain("graph-node (median");
    expect(text).not.toContain("ours/graph-node round by round");
  });
});
