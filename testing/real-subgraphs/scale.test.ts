import { describe, expect, it } from "vitest";
import { parseScale } from "./scale.js";

describe("parseScale", () => {
  it("answers no scale without either flag, and the other's default with one", () => {
    expect(parseScale({})).toBeUndefined();
    expect(parseScale({ pairs: "120" })).toEqual({ pairs: 120, trades: 20_000 });
    expect(parseScale({ trades: "500" })).toEqual({ pairs: 100, trades: 500 });
  });

  it("refuses what is not a whole number in range, naming the flag", () => {
    expect(() => parseScale({ pairs: "0" })).toThrow("--pairs must be a whole number of at least 1, not \"0\"");
    expect(() => parseScale({ trades: "1e4" })).toThrow("--trades must be a whole number");
    expect(() => parseScale({ pairs: "ten" })).toThrow("--pairs");
  });
});
