import { describe, expect, it } from "vitest";
import { tokenToValue, valueToJson, valuesEqual, valueToString } from "./values.js";

describe("graph-node Value forms", () => {
  it("prints the strings assert.fieldEquals compares against", () => {
    expect(valueToString({ kind: "Bytes", value: Uint8Array.of(0xab, 0x01) })).toBe("0xab01");
    expect(valueToString({ kind: "BigInt", value: 2n ** 256n - 1n })).toBe("115792089237316195423570985008687907853269984665640564039457584007913129639935");
    expect(valueToString({ kind: "Bool", value: false })).toBe("false");
    expect(valueToString({ kind: "Null" })).toBe("null");
    expect(valueToString({ kind: "Array", value: [{ kind: "String", value: "a" }, { kind: "Int", value: -3 }] })).toBe("[a, -3]");
    expect(valueToString({ kind: "BigDecimal", value: "1.5" })).toBe("1.5");
  });

  it("serializes tagged as graph-node's serde form", () => {
    expect(valueToJson({ kind: "Array", value: [{ kind: "Null" }, { kind: "BigInt", value: 5n }] })).toEqual({
      type: "List",
      data: [{ type: "Null" }, { type: "BigInt", data: "5" }],
    });
  });

  it("compares ethereum values as Matchstick's assert.equals does", () => {
    const eq = (a: Parameters<typeof tokenToValue>[0], b: Parameters<typeof tokenToValue>[0]): boolean => valuesEqual(tokenToValue(a), tokenToValue(b));
    expect(eq({ kind: "int", value: 5n }, { kind: "uint", value: 5n })).toBe(true);
    expect(eq({ kind: "address", value: "0x" + "11".repeat(20) }, { kind: "bytes", value: new Uint8Array(20).fill(0x11) })).toBe(true);
    expect(eq({ kind: "string", value: "5" }, { kind: "uint", value: 5n })).toBe(false);
    expect(eq({ kind: "array", value: [{ kind: "bool", value: true }] }, { kind: "tuple", value: [{ kind: "bool", value: true }] })).toBe(true);
    expect(eq({ kind: "array", value: [{ kind: "bool", value: true }] }, { kind: "array", value: [] })).toBe(false);
  });
});
