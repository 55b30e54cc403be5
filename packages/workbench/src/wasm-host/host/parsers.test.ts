// Pure parsers and conversions behind json.*, yaml.*, bigInt.fromString and typeConversion.*.
import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseJsonBytes, parseJsonText } from "./jsonParse.js";
import { parseRustFloat } from "./json.js";
import { parseYamlBytes } from "./yaml.js";
import { parseBigInt } from "./bigInt.js";
import { bigIntToHex, bytesToString, stringToAddress } from "./typeConversion.js";
import { HostError } from "../errors.js";

const enc = (s: string) => new TextEncoder().encode(s);

describe("JSON like serde_json", () => {
  it("keeps the last duplicate key and sorts keys", () => {
    expect(parseJsonText('{"b":1,"a":2,"b":3}')).toEqual({ kind: "object", value: [["a", { kind: "number", value: "2" }], ["b", { kind: "number", value: "3" }]] });
  });
  it("keeps number text and decodes escapes", () => {
    expect(parseJsonText("[1e400, -0.0, 123456789012345678901234567890]")).toEqual({
      kind: "array",
      value: [{ kind: "number", value: "1e400" }, { kind: "number", value: "-0.0" }, { kind: "number", value: "123456789012345678901234567890" }],
    });
    expect(parseJsonText('"\\ud83d\\ude80 \\t\\"\\/"')).toEqual({ kind: "string", value: "🚀 \t\"/" });
  });
  it("rejects what serde_json rejects", () => {
    for (const bad of ["", "01", "1.", ".5", "[1,]", "{'a':1}", "tru", '"a\nb"', "1 2", "NaN", '{"a" 1}', "[".repeat(200) + "]".repeat(200)]) {
      expect(() => parseJsonText(bad), bad).toThrow(JsonSyntaxError);
    }
    expect(() => parseJsonBytes(Uint8Array.from([0x22, 0xff, 0x22]))).toThrow(/UTF-8/);
    expect(() => parseJsonBytes(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toThrow(JsonSyntaxError);
  });
});

describe("YAML like serde_yaml", () => {
  it("resolves the YAML 1.2 core schema", () => {
    expect(parseYamlBytes(enc("a: yes\nb: ~\nc: 0o17\nd: 1.0\ne: .inf\nf: '1'\n"))).toEqual({
      kind: "object",
      value: [
        [{ kind: "string", value: "a" }, { kind: "string", value: "yes" }],
        [{ kind: "string", value: "b" }, { kind: "null" }],
        [{ kind: "string", value: "c" }, { kind: "number", value: "15" }],
        [{ kind: "string", value: "d" }, { kind: "number", value: "1.0" }],
        [{ kind: "string", value: "e" }, { kind: "number", value: ".inf" }],
        [{ kind: "string", value: "f" }, { kind: "string", value: "1" }],
      ],
    });
  });
  it("rejects duplicate keys and bad syntax", () => {
    expect(() => parseYamlBytes(enc("a: 1\na: 2\n"))).toThrow(HostError);
    expect(() => parseYamlBytes(enc("a: [1"))).toThrow(/failed to parse YAML/);
  });
});

describe("numbers and conversions", () => {
  it("parses BigInt strings like num-bigint", () => {
    expect(parseBigInt("-1_000")).toBe(-1000n);
    expect(parseBigInt("+42")).toBe(42n);
    for (const bad of ["", "_1", "1.0", "0x10", " 1", "--1"]) expect(parseBigInt(bad), bad).toBeNull();
  });
  it("parses floats like Rust", () => {
    expect(parseRustFloat("inf")).toBe(Infinity);
    expect(parseRustFloat("-Infinity")).toBe(-Infinity);
    expect(parseRustFloat("NaN")).toBeNaN();
    expect(parseRustFloat("5.")).toBe(5);
    expect(parseRustFloat(".5e1")).toBe(5);
    for (const bad of ["", "0x10", "1e", " 1", "1_0"]) expect(parseRustFloat(bad), bad).toBeNull();
  });
  it("prints graph-node's hex and strings", () => {
    expect(bigIntToHex(0n)).toBe("0x0");
    expect(bigIntToHex(4096n)).toBe("0x1000");
    expect(bigIntToHex(-15n)).toBe("0xf");
    expect(bytesToString(Uint8Array.from([0xf0, 0x9f, 0x9a, 0x80, 0x00]))).toBe("🚀");
    expect(bytesToString(Uint8Array.from([0xc3]))).toBe("\ufffd");
    expect(() => stringToAddress("0x" + "g".repeat(40))).toThrow("Failed to convert string to Address");
    expect(stringToAddress("0X" + "AB".repeat(20))).toEqual(new Uint8Array(20).fill(0xab));
  });
});
