import { describe, expect, it } from "vitest";
import { coverageOf, isCalled, percent } from "./coverage.js";

const wat = ["(func $start:tests/a.test~anonymous|0", "    call $src/mapping/handleNewGravatar", "    call $~lib/matchstick-as/assembly/assert/assert.fieldEquals", '(export "handleUpdatedGravatar" (func $src/mapping/handleUpdatedGravatar))'].join("\n");

describe("coverage", () => {
  it("counts a handler only when a call line names it", () => {
    expect(isCalled(wat, "handleNewGravatar")).toBe(true);
    expect(isCalled(wat, "handleUpdatedGravatar")).toBe(false);
  });

  it("sums per source and globally, with one decimal", () => {
    const report = coverageOf([{ name: "Gravity", handlers: ["handleNewGravatar", "handleUpdatedGravatar", "handleCreateGravatar"] }, { name: "Empty", handlers: [] }], [wat]);
    expect(report.sources[0]).toMatchObject({ called: 1, total: 3 });
    expect(percent(report.called, report.total)).toBe("33.3");
    expect(percent(0, 0)).toBe("0.0");
  });
});
