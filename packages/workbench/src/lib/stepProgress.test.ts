import { describe, expect, it } from "vitest";
import { createStepProgress, secondsLeft } from "./stepProgress.js";

const notATerminal = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;

describe("step progress", () => {
  it("estimates the time left from the mean pace so far", () => {
    expect(secondsLeft(0, 10, 5_000)).toBeNull();
    expect(secondsLeft(2, 10, 4_000)).toBe(16);
    expect(secondsLeft(10, 10, 4_000)).toBe(0);
  });

  it("prints nothing for a wait shorter than the first line's delay", () => {
    let t = 0;
    const lines: string[] = [];
    const progress = createStepProgress({ label: "compiled", total: 3, unit: "test files", stream: notATerminal, plainLine: (l) => lines.push(l), now: () => t });
    for (let i = 0; i < 3; i++) (t += 1_000), progress.step();
    progress.stop();
    expect(lines).toEqual([]);
  });

  it("without a terminal, prints a line at most every few seconds, with the count and the ETA, and a closing one", () => {
    let t = 0;
    const lines: string[] = [];
    const progress = createStepProgress({ label: "parity", total: 4, unit: "cases", stream: notATerminal, plainLine: (l) => lines.push(l), now: () => t, plainEveryMs: 5_000 });
    t = 6_000;
    progress.step("composition");
    t = 7_000;
    progress.step("aggregation");
    t = 12_000;
    progress.step("approvals");
    t = 13_000;
    progress.step();
    progress.stop();
    expect(lines).toEqual(["parity: 1 of 4 cases, ETA 18 s (now: composition)", "parity: 3 of 4 cases, ETA 4 s (now: approvals)", "parity: 4 of 4 cases in 13 s"]);
  });
});
