import { describe, expect, it } from "vitest";
import { dividedBy, equals, fromString, minus, normalize, plus, times, toString } from "./bigDecimalMath.js";

const d = (s: string) => {
  const v = fromString(s);
  if (v === null) throw new Error(`bad test input ${s}`);
  return v;
};
const show = (s: string) => toString(d(s));

describe("BigDecimal (graph-node's 34 significant digits)", () => {
  it("parses and prints graph-node's forms", () => {
    expect(show("1.50")).toBe("1.5");
    expect(show("-0.000")).toBe("0");
    expect(show("100")).toBe("100");
    expect(show("1e-7")).toBe("0.0000001");
    expect(show("1.5E3")).toBe("1500");
    expect(show("+.5")).toBe("0.5");
    expect(show("-12.3400")).toBe("-12.34");
    expect(d("100")).toEqual({ digits: 1n, exp: 2 });
    for (const bad of ["", "abc", "1e", "1.2.3", " 1", "0x10", "1e1.5"]) expect(fromString(bad)).toBeNull();
  });

  it("rounds to 34 digits half-up on the first dropped digit, truncating negatives like the bigdecimal crate", () => {
    expect(show("12345678901234567890123456789012345")).toBe("12345678901234567890123456789012350");
    expect(show("12345678901234567890123456789012344")).toBe("12345678901234567890123456789012340");
    expect(show("1234567890123456789012345678901234.05")).toBe("1234567890123456789012345678901234");
    expect(show("9999999999999999999999999999999999.5")).toBe("10000000000000000000000000000000000");
    // Negative values are truncated toward zero, never rounded (the crate's `p < 10 * r` test).
    expect(show("-12345678901234567890123456789012345")).toBe("-12345678901234567890123456789012340");
  });

  it("adds, subtracts and multiplies exactly before normalizing", () => {
    expect(toString(plus(d("0.1"), d("0.2")))).toBe("0.3");
    expect(toString(minus(d("1"), d("1.0000000001")))).toBe("-0.0000000001");
    expect(toString(times(d("0.1"), d("0.2")))).toBe("0.02");
    expect(toString(plus(d("1e34"), d("1")))).toBe("10000000000000000000000000000000000");
    expect(toString(times(d("-3"), d("0")))).toBe("0");
  });

  it("divides to 100 digits, then rounds to 34", () => {
    expect(toString(dividedBy(d("1"), d("3")))).toBe("0.3333333333333333333333333333333333");
    expect(toString(dividedBy(d("2"), d("3")))).toBe("0.6666666666666666666666666666666667");
    expect(toString(dividedBy(d("-2"), d("3")))).toBe("-0.6666666666666666666666666666666666");
    expect(toString(dividedBy(d("1"), d("8")))).toBe("0.125");
    expect(toString(dividedBy(d("10"), d("4")))).toBe("2.5");
    expect(toString(dividedBy(d("7.5"), d("7.5")))).toBe("1");
    expect(toString(dividedBy(d("0"), d("7")))).toBe("0");
    expect(toString(dividedBy(d("1"), d("-7")))).toBe("-0.1428571428571428571428571428571428");
    expect(() => dividedBy(d("1"), d("0"))).toThrow(/zero/);
  });

  it("compares normalized values", () => {
    expect(equals(d("1.0"), d("1"))).toBe(true);
    expect(equals(normalize(10n, 0), normalize(1n, 1))).toBe(true);
    expect(equals(d("1.01"), d("1"))).toBe(false);
  });
});
