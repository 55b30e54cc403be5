// The worker's filter of ids that may be stored: never a false "absent", rarely a false "may exist".
import { describe, expect, it } from "vitest";
import { IdFilter } from "./idFilter.js";

describe("IdFilter", () => {
  it("has every id added, and few that were not", () => {
    const filter = new IdFilter();
    const id = (i: number) => `0x${i.toString(16).padStart(64, "0")}-${i % 7}`;
    for (let i = 0; i < 50_000; i++) filter.add(id(i));
    for (let i = 0; i < 50_000; i++) expect(filter.mayHave(id(i))).toBe(true);
    let falsePositives = 0;
    for (let i = 50_000; i < 100_000; i++) if (filter.mayHave(id(i))) falsePositives++;
    // 50,000 hashes of 32 bits: about 0.6 expected.
    expect(falsePositives).toBeLessThan(5);
    expect(new IdFilter().mayHave("")).toBe(false);
  });
});
