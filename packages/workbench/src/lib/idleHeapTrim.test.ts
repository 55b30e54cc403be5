import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "./collectGarbage.js";
import { createIdleHeapTrim } from "./idleHeapTrim.js";

const committedMiB = () => getHeapStatistics().total_heap_size / 2 ** 20;

/** Grows the heap with data that then becomes garbage, as a catch-up leaves it, and collects it the regular way. */
function growThenCollect(): number {
  let hold: { n: number; s: string }[][] = [];
  for (let i = 0; i < 40; i++) hold.push(Array.from({ length: 20_000 }, (_, n) => ({ n, s: `entity-${i}-${n}` })));
  hold = [];
  collectGarbage();
  return committedMiB() + hold.length;
}

describe("createIdleHeapTrim", () => {
  it("gives back the pages a regular collection keeps, once the thread has been quiet", async () => {
    const afterRegular = growThenCollect();
    const trim = createIdleHeapTrim({ quietMs: 100, aboveMiB: 0 });
    trim.busy();
    await new Promise((r) => setTimeout(r, 50));
    trim.busy(); // more work: the wait starts again
    await new Promise((r) => setTimeout(r, 400));
    expect(afterRegular - committedMiB()).toBeGreaterThan(20);
  });

  it("leaves a heap below its threshold alone", async () => {
    const afterRegular = growThenCollect();
    const trim = createIdleHeapTrim({ quietMs: 100, aboveMiB: 1_000_000 });
    trim.busy();
    await new Promise((r) => setTimeout(r, 300));
    expect(afterRegular - committedMiB()).toBeLessThan(20);
  });
});
