import { describe, expect, it } from "vitest";
import { ethereumEncode } from "./ethereum.js";

const hex = (bytes: unknown) => `0x${Buffer.from(bytes as Uint8Array).toString("hex")}`;

describe("ethereumEncode", () => {
  it("encodes fixed bytes of any length up to 32 as their right-padded word, an empty one included", () => {
    expect(hex(ethereumEncode({ kind: "fixedBytes", value: "0x1234" }))).toBe(`0x1234${"00".repeat(30)}`);
    expect(hex(ethereumEncode({ kind: "fixedBytes", value: new Uint8Array(0) }))).toBe(`0x${"00".repeat(32)}`);
  });
});
