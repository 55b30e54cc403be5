import { describe, expect, it } from "vitest";
import { addDecimals, closeToFraction, decimalEquals, formatDecimal, fromRaw, parseDecimal } from "./decimal.js";

describe("exact decimals", () => {
  it("parses what a GraphQL API returns for a BigDecimal", () => {
    expect(parseDecimal("12.50")).toEqual({ coefficient: 125n, exponent: -1 });
    expect(parseDecimal("0")).toEqual({ coefficient: 0n, exponent: 0 });
    expect(parseDecimal("-0.000")).toEqual({ coefficient: 0n, exponent: 0 });
    expect(parseDecimal("1E-7")).toEqual({ coefficient: 1n, exponent: -7 });
    expect(parseDecimal("1500")).toEqual({ coefficient: 15n, exponent: 2 });
    expect(parseDecimal("1.2.3")).toBeNull();
    expect(parseDecimal(12)).toBeNull();
  });

  it("compares a field with a raw token amount and its decimals", () => {
    expect(decimalEquals(parseDecimal("1974.3160687941225977")!, fromRaw(1974316068794122597700n, 18))).toBe(true);
    expect(decimalEquals(parseDecimal("1974.3160687941225976")!, fromRaw(1974316068794122597700n, 18))).toBe(false);
    expect(decimalEquals(parseDecimal("3000")!, fromRaw(3000n * 10n ** 6n, 6))).toBe(true);
  });

  it("adds and prints", () => {
    expect(formatDecimal(addDecimals(fromRaw(5n, 1), fromRaw(25n, 2)))).toBe("0.75");
    expect(formatDecimal(fromRaw(-12n, 3))).toBe("-0.012");
    expect(formatDecimal(fromRaw(7n, -2))).toBe("700");
  });

  it("matches a quotient to a number of significant digits", () => {
    // 2/3 to 34 digits, as BigDecimal division gives it.
    const twoThirds = parseDecimal(`0.${"6".repeat(33)}7`)!;
    expect(closeToFraction(twoThirds, 2n, 3n, 30)).toBe(true);
    expect(closeToFraction(parseDecimal("0.6667")!, 2n, 3n, 30)).toBe(false);
    expect(closeToFraction(parseDecimal("0")!, 0n, 5n, 30)).toBe(true);
    expect(closeToFraction(parseDecimal("0.0001")!, 0n, 5n, 30)).toBe(false);
  });
});
