import { describe, expect, it } from "vitest";
import { declarationLine, formatError, wasmFrames } from "./failure.js";

describe("failure locations", () => {
  it("finds the line that declares a test by its name literal", () => {
    const source = 'import { test } from "x";\n\ntest("adds up", () => {});\ntest(\'it\\\'s quoted\', () => {});\n';
    expect(declarationLine(source, "adds up")).toBe(3);
    expect(declarationLine(source, "it's quoted")).toBe(4);
    expect(declarationLine(source, "missing")).toBeNull();
  });

  it("lists the wasm frames of a stack, taken from a cause when the error has none", () => {
    const stack = "Error: x\n    at fn (file:///a.js:1:1)\n    at start:tests/a.test~anonymous|0 (wasm://wasm/0a1b2c3d:wasm-function[42]:0x1f00)";
    expect(wasmFrames(stack)).toEqual(["0x1f00 - start:tests/a.test~anonymous|0"]);
    const inner = new Error("inner");
    inner.stack = stack;
    const outer = new Error("outer", { cause: inner });
    outer.stack = "Error: outer\n    at js (file:///b.js:1:1)";
    expect(formatError(outer)).toBe("outer\nwasm backtrace:\n  0: 0x1f00 - start:tests/a.test~anonymous|0");
  });
});
