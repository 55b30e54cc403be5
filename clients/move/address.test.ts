import { describe, expect, it } from "vitest";
import { isAddress, normalizeAddress, normalizeHash, sameAddress } from "./address.js";
import { InvalidAddressError, InvalidHashError } from "./errors.js";

describe("normalizeAddress", () => {
  it("pads short forms to 0x + 64 lowercase hex digits", () => {
    expect(normalizeAddress("0x1")).toBe(`0x${"0".repeat(63)}1`);
    expect(normalizeAddress("0xCAFE")).toBe(`0x${"0".repeat(60)}cafe`);
    expect(normalizeAddress("  0xcafe ")).toBe(`0x${"0".repeat(60)}cafe`);
  });

  it("accepts a full address with or without 0x and keeps it", () => {
    const full = `0x${"ab".repeat(32)}`;
    expect(normalizeAddress(full)).toBe(full);
    expect(normalizeAddress("AB".repeat(32))).toBe(full);
  });

  it.each(["", "0x", "0xg1", "0x" + "1".repeat(65), "cafe babe", "0x-1", "1x1"])("rejects %j", (input) => {
    expect(() => normalizeAddress(input)).toThrow(InvalidAddressError);
    expect(isAddress(input)).toBe(false);
  });

  it("compares addresses across forms", () => {
    expect(sameAddress("0x1", `0x${"0".repeat(63)}1`)).toBe(true);
    expect(sameAddress("0x1", "0x2")).toBe(false);
    expect(sameAddress("0x1", "nope")).toBe(false);
  });
});

describe("normalizeHash", () => {
  const hash = `0x${"0123456789abcdef".repeat(4)}`;

  it("accepts exactly 32 bytes of hex, with or without 0x, any case", () => {
    expect(normalizeHash(hash)).toBe(hash);
    expect(normalizeHash(hash.slice(2).toUpperCase())).toBe(hash);
  });

  it.each(["0x1", hash.slice(0, -1), `${hash}0`, `0x${"z".repeat(64)}`, ""])("rejects %j without padding it", (input) => {
    expect(() => normalizeHash(input)).toThrow(InvalidHashError);
  });

  it("names the expected form in the error", () => {
    try {
      normalizeHash("0x1234");
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidHashError).code).toBe("MOVE_INVALID_HASH");
      expect((error as Error).message).toContain("64 hex digits");
    }
  });
});
