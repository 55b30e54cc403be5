import { describe, expect, it } from "vitest";
import { createRateTracker } from "./rates.js";

describe("the dashboard's rates", () => {
  it("averages from when indexing started when the node knows it, not from the page's first look", () => {
    let t = 100_000;
    const rates = createRateTracker(() => t);
    // Indexing started 100 s before the page first asked, at block 9 with no event yet.
    const since = { at: 0, block: 9, events: 0 };
    const first = rates.sample("QmA", { block: 209, head: 1_009, events: 5_000 }, since);
    expect(first.blocksPerSecond.average).toBe(2);
    expect(first.eventsPerSecond.average).toBe(50);
    t = 110_000;
    const later = rates.sample("QmA", { block: 309, head: 1_009, events: 6_000 }, since);
    expect(later.blocksPerSecond).toEqual({ now: 10, average: 300 / 110 });
    expect(later.eventsPerSecond.now).toBe(100);
    expect(later.secondsToHead).toBe(70);
  });

  it("without a start, averages from its first sample", () => {
    let t = 0;
    const rates = createRateTracker(() => t);
    rates.sample("QmA", { block: 10, head: 100, events: 0 });
    t = 5_000;
    expect(rates.sample("QmA", { block: 20, head: 100, events: 50 }).blocksPerSecond).toEqual({ now: 2, average: 2 });
  });
});
