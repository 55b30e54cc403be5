import { describe, expect, it } from "vitest";
import { codeSectionEnd, sameCodeAndOffsets } from "./wasmSections.js";

// (module (func (export "f") (result i32) i32.const 7)), as wat2wasm writes it.
const MODULE = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type: () -> i32
  0x03, 0x02, 0x01, 0x00, // func: one of type 0
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f" func 0
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x07, 0x0b, // code: i32.const 7
]);
const withCustom = (bytes: Uint8Array, name: string) => Uint8Array.from([...bytes, 0x00, name.length + 1, name.length, ...Buffer.from(name)]);

describe("wasm sections", () => {
  it("finds where the code section ends, in a module WebAssembly compiles", () => {
    expect(() => new WebAssembly.Module(MODULE)).not.toThrow();
    expect(codeSectionEnd(MODULE)).toBe(MODULE.length);
    expect(codeSectionEnd(Uint8Array.from([1, 2, 3]))).toBeNull();
    expect(codeSectionEnd(MODULE.subarray(0, 20))).toBeNull();
  });

  it("takes a module with custom sections after its code as the same code, and different code as different", () => {
    expect(sameCodeAndOffsets(MODULE, withCustom(MODULE, "sourceMappingURL"))).toBe(true);
    const other = Uint8Array.from(MODULE);
    other[MODULE.length - 2] = 0x08;
    expect(() => new WebAssembly.Module(other)).not.toThrow();
    expect(sameCodeAndOffsets(MODULE, other)).toBe(false);
  });
});
