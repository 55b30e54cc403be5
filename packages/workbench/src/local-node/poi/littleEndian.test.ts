import { describe, expect, it } from "vitest";
import { bigToBytesLe, bigToBytesLeView, bytesToBigLe } from "./littleEndian.js";

describe("little-endian conversions", () => {
  it("round-trip numbers of every hex parity and size, zero as no bytes", () => {
    for (const n of [0n, 1n, 0xfn, 0x100n, 0xabcdefn, 2n ** 64n - 1n, 3n ** 1290n, 2n ** 2048n + 12345n]) {
      const bytes = bigToBytesLe(n);
      expect(bytesToBigLe(bytes)).toBe(n);
      expect(bytes.length).toBe(n === 0n ? 0 : Math.ceil(n.toString(16).length / 2));
      // Little-endian and without high zeros: the last byte is the most significant, never 0.
      if (n > 0n) expect(bytes[bytes.length - 1]).not.toBe(0);
    }
    expect([...bigToBytesLe(0x0102n)]).toEqual([2, 1]);
    expect(bytesToBigLe(Uint8Array.of(2, 1))).toBe(0x0102n);
  });

  it("gives arrays of their own, while a view is overwritten by the next call", () => {
    const a = bigToBytesLe(0x0102n);
    const b = bigToBytesLe(0x0304n);
    expect([...a, ...b]).toEqual([2, 1, 4, 3]);
    const view = bigToBytesLeView(0x0506n);
    expect([...view]).toEqual([6, 5]);
    bigToBytesLeView(0x0708n);
    expect([...view]).toEqual([8, 7]);
  });
});
