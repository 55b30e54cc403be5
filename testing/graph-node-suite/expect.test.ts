import { describe, expect, it } from "vitest";
import { assertEqual, at, jsonEqual } from "./expect.js";

describe("serde_json equality", () => {
  it("compares objects by key in any order and arrays in order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual("10", 10)).toBe(false);
  });

  it("reports what differs", () => {
    expect(() => assertEqual("foos", [{ id: "0" }], [{ id: "1" }])).toThrow('foos: expected [{"id":"1"}], got [{"id":"0"}]');
  });

  it("indexes like serde_json", () => {
    expect(at({ data: { x: [1, 2] } }, "data", "x", 1)).toBe(2);
    expect(at({ data: null }, "data", "x")).toBe(null);
    expect(at(undefined, "a")).toBe(null);
  });
});
