import { describe, expect, it } from "vitest";
import { Base64UrlError, decodeBase64Url, encodeBase64Url, findBase64UrlError } from "./base64url.js";

describe("strict base64url", () => {
  it("round-trips every length from 0 to 70 bytes", () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff));
      const text = encodeBase64Url(bytes);
      expect(findBase64UrlError(text)).toBe(-1);
      expect(decodeBase64Url(text).equals(bytes)).toBe(true);
    }
  });

  it("points at the first character outside the alphabet, like golang's CorruptInputError", () => {
    expect(findBase64UrlError("abc+")).toBe(3);
    expect(findBase64UrlError("ab/c")).toBe(2);
    expect(findBase64UrlError("abcd=")).toBe(4);
    expect(findBase64UrlError("ab\ncd")).toBe(2);
    expect(findBase64UrlError("ab\u00e9")).toBe(2);
  });

  it("refuses an impossible length and set spare bits", () => {
    expect(findBase64UrlError("abcde")).toBe(5);
    // "AB" carries one byte in 12 bits: the low 4 bits of "B" (1) are spare and must be 0.
    expect(findBase64UrlError("AB")).toBe(1);
    expect(findBase64UrlError("AQ")).toBe(-1);
    // "AAB": 18 bits for two bytes, 2 spare bits.
    expect(findBase64UrlError("AAB")).toBe(2);
    expect(findBase64UrlError("AAE")).toBe(-1);
  });

  it("throws Base64UrlError with golang's message", () => {
    expect(() => decodeBase64Url("a*b")).toThrow(new Base64UrlError(1));
    expect(() => decodeBase64Url("a*b")).toThrow("illegal base64 data at input byte 1");
  });
});
