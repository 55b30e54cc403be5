import { describe, expect, it } from "vitest";
import { StorageRangeParamsError } from "./errors.js";
import { normalizeWord, parseStartKey, slotKey } from "./slotKey.js";

describe("slot keys", () => {
  it("parses start keys the way int(x, 16) does", () => {
    expect(parseStartKey("0x0")).toBe(0n);
    expect(parseStartKey("0x00000000000000000000000000000000")).toBe(0n);
    expect(parseStartKey("ff")).toBe(255n);
    expect(parseStartKey("0XfF")).toBe(255n);
    expect(parseStartKey("0x1_0")).toBe(16n);
    expect(parseStartKey(" 0x10 ")).toBe(16n);
    expect(parseStartKey(31)).toBe(31n);
    for (const bad of ["", "0x", "0xg", "1__0", "-1"]) expect(() => parseStartKey(bad)).toThrow(StorageRangeParamsError);
    expect(() => parseStartKey(`0x1${"0".repeat(64)}`)).toThrow("start key out of range");
  });

  it("formats keys as lower-case hex without leading zeros", () => {
    expect(slotKey(0n)).toBe("0x0");
    expect(slotKey(11n)).toBe("0xb");
    expect(slotKey(2n ** 255n)).toBe(`0x8${"0".repeat(63)}`);
  });

  it("normalises node values to 32-byte lower-case hex", () => {
    expect(normalizeWord(`0x${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(normalizeWord("0x0")).toBe(`0x${"0".repeat(64)}`);
    expect(normalizeWord("nope")).toBeUndefined();
    expect(normalizeWord(5)).toBeUndefined();
  });
});
