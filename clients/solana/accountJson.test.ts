import { describe, expect, it } from "vitest";
import { accountToJson } from "./accountJson.js";

describe("accountToJson", () => {
  it("prints bytes as base64 with their length and u64 fields as decimal strings", () => {
    expect(
      accountToJson({
        lamports: 2n ** 64n - 1n,
        owner: "11111111111111111111111111111111",
        data: Uint8Array.of(1, 2, 3),
        dataEncoding: "base64+zstd",
        executable: false,
        rentEpoch: 7n,
        space: 3,
      }),
    ).toEqual({
      lamports: "18446744073709551615",
      owner: "11111111111111111111111111111111",
      executable: false,
      rentEpoch: "7",
      space: 3,
      data: { encoding: "base64+zstd", length: 3, base64: "AQID" },
    });
  });

  it("keeps jsonParsed data and null accounts", () => {
    const data = { program: "spl-token", parsed: { type: "mint" }, space: 82 };
    expect(
      accountToJson({ lamports: 1n, owner: "x", data, dataEncoding: "jsonParsed", executable: false, rentEpoch: 0n, space: 82 })?.data,
    ).toEqual({ encoding: "jsonParsed", ...data });
    expect(accountToJson(null)).toBeNull();
  });
});
