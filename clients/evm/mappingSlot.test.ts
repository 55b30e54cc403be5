import { AbiCoder, keccak256 } from "ethers";
import { describe, expect, it } from "vitest";
import { MappingKeyError } from "./errors.js";
import { mappingSlot } from "./mappingSlot.js";

// Independent formula: keccak256(abi.encode(key, slot)) for a uint256/address key.
const expected = (key: bigint | string, slot: bigint) =>
  keccak256(AbiCoder.defaultAbiCoder().encode([typeof key === "string" ? "address" : "uint256", "uint256"], [key, slot]));

describe("mappingSlot", () => {
  it("computes keccak256(pad32(key) ++ uint256(slot))", () => {
    expect(mappingSlot(1n, 8)).toBe(expected(1n, 8n));
    expect(mappingSlot(0, 0)).toBe("0xad3228b676f7d3cd4284a5443f17f1962b36e491b30a40b2405849e597ba5fb5");
    const address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    expect(mappingSlot(address, 9n)).toBe(expected(address, 9n));
  });

  it("treats hex, integer and bytes forms of one key alike", () => {
    const slot = mappingSlot(0xbeefn, 3);
    expect(mappingSlot(0xbeef, 3)).toBe(slot);
    expect(mappingSlot("0xbeef", 3)).toBe(slot);
    expect(mappingSlot("beef", 3)).toBe(slot);
    expect(mappingSlot(Uint8Array.of(0xbe, 0xef), 3)).toBe(slot);
    expect(mappingSlot(`0x${"00".repeat(30)}beef`, 3n)).toBe(slot);
  });

  it("returns 0x hex of 32 bytes", () => {
    expect(mappingSlot(2n ** 256n - 1n, 2n ** 200n)).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it.each([true, null, undefined, {}, [1, 2], 1.5, Number.NaN, "0xnothex", Symbol("k")])("rejects %s with the reference's message", (key) => {
    const error = (() => {
      try {
        mappingSlot(key as never, 0);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MappingKeyError);
    expect((error as Error).message).toBe("Key must be hex string, integer, or bytes");
  });

  it("rejects odd-length hex, oversized keys and negative integers", () => {
    expect(() => mappingSlot("0xabc", 0)).toThrow("Hex key must have an even number of digits");
    expect(() => mappingSlot(new Uint8Array(33), 0)).toThrow("Key must be at most 32 bytes");
    expect(() => mappingSlot(-1n, 0)).toThrow("Integer key must be between 0 and 2^256 - 1");
    expect(() => mappingSlot(2n ** 256n, 0)).toThrow(MappingKeyError);
    expect(() => mappingSlot(1n, -1)).toThrow("Mapping slot must be between 0 and 2^256 - 1");
  });
});
