// The memory cap written into a module's memory section: V8 then refuses to grow past it, and the rest
// of the module is untouched.
import { describe, expect, it } from "vitest";
import { WASM_PAGE_BYTES, withMemoryMaximum } from "./memoryMaximum.js";

/** A module with one memory (`limits` as encoded) exported as "memory", and a custom section after it. */
function moduleWith(limits: number[]): Uint8Array {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const memory = [0x05, limits.length + 1, 0x01, ...limits];
  const exports = [0x07, 0x0a, 0x01, 0x06, ...Buffer.from("memory"), 0x02, 0x00];
  const custom = [0x00, 0x04, 0x01, 0x78, 0x01, 0x02];
  return new Uint8Array([...header, ...memory, ...exports, ...custom]);
}

const memoryOf = (bytes: Uint8Array): WebAssembly.Memory => new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>)).exports["memory"] as WebAssembly.Memory;

describe("withMemoryMaximum", () => {
  it("adds a maximum to a memory that has none: growing past it fails, up to it works", () => {
    const memory = memoryOf(withMemoryMaximum(moduleWith([0x00, 0x01]), 200));
    expect(memory.grow(199)).toBe(1);
    expect(memory.buffer.byteLength).toBe(200 * WASM_PAGE_BYTES);
    expect(() => memory.grow(1)).toThrow(RangeError);
  });

  it("keeps a smaller maximum the module declares, and lowers a larger one", () => {
    expect(() => memoryOf(withMemoryMaximum(moduleWith([0x01, 0x01, 0x03]), 200)).grow(3)).toThrow(RangeError);
    const lowered = memoryOf(withMemoryMaximum(moduleWith([0x01, 0x01, 0x80, 0x04]), 2));
    expect(lowered.grow(1)).toBe(1);
    expect(() => lowered.grow(1)).toThrow(RangeError);
  });

  it("refuses a module whose initial memory is past the cap, and leaves a module without memory alone", () => {
    expect(() => withMemoryMaximum(moduleWith([0x00, 0x05]), 4)).toThrow("the mapping's initial memory of 0.3125 MB is past the limit of 0.25 MB");
    const bare = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect(withMemoryMaximum(bare, 4)).toBe(bare);
  });
});
