// The codec against a real module's memory and allocator (graph-ts's allocate / id_of_type).
import { beforeAll, describe, expect, it } from "vitest";
import { createHarness, fixtureModule, type Harness } from "../_test/harness.js";
import { HostError } from "../errors.js";
import { TypeId } from "./typeIds.js";
import type { EthereumValue } from "../types.js";
import type { StoreValue } from "../values/storeValue.js";

let h: Harness;
beforeAll(async () => {
  await fixtureModule("functions.as.ts");
  h = await createHarness("functions.as.ts");
}, 180_000);

const codec = () => h.instance.context.codec;

describe("object headers and allocation", () => {
  it("writes graph-node's 20-byte header with the module's class id, content 16-byte aligned", () => {
    const ptr = codec().writeString("abc");
    expect(ptr % 16).toBe(0);
    expect(codec().readU32(ptr - 4)).toBe(6); // rtSize: byte length
    expect(codec().readU32(ptr - 8)).toBe(codec().classId(TypeId.String));
    expect(codec().readU32(ptr - 20)).toBe(16 + 16); // mmInfo: header words + padded content
  });
});

describe("strings and bytes", () => {
  it("round-trips strings of every length and plane", () => {
    for (const s of ["", "a", "héllo", "🚀 rocket", "x".repeat(33), "ü".repeat(20_000) + "🚀"]) {
      expect(codec().readString(codec().writeString(s))).toBe(s);
    }
  });
  it("strips NUL characters and rejects lone surrogates, as graph-node reads strings", () => {
    expect(codec().readString(codec().writeString("\u0000a\u0000b"))).toBe("ab");
    expect(() => codec().readString(codec().writeString("a\ud800b"))).toThrow("invalid utf-16: lone surrogate found");
    expect(() => codec().readString(codec().writeString("x".repeat(100) + "\udc00"))).toThrow(HostError);
  });
  it("reads strings built by AssemblyScript", () => {
    expect(h.callString("bigIntOp", "nope", "1", "1")).toBe("unknown op");
  });
  it("round-trips bytes and ArrayBuffers, and hex straight into memory", () => {
    const b = Uint8Array.from([0, 1, 255, 128]);
    expect(codec().readBytes(codec().writeBytes(b))).toEqual(b);
    expect(codec().readArrayBuffer(codec().writeArrayBuffer(b))).toEqual(b);
    expect(codec().readBytes(codec().writeBytesHex("0x0001FF80"))).toEqual(b);
    expect(codec().readBytes(codec().writeBytesHex(""))).toEqual(new Uint8Array(0));
    expect(() => codec().writeBytesHex("0x123")).toThrow(HostError);
    expect(() => codec().writeBytesHex("0xzz")).toThrow(/not valid hex/);
    expect(codec().readString(codec().writeBytesAsHex(codec().writeBytes(b)))).toBe("0x0001ff80");
    expect(codec().readString(codec().writeBytesAsHex(codec().writeBytes(new Uint8Array(0))))).toBe("0x");
  });
  it("reads a string again at the same address as the memory now holds it", () => {
    const ptr = codec().writeString("ApprovalQuery");
    expect(codec().readString(ptr)).toBe("ApprovalQuery");
    expect(codec().readString(ptr)).toBe("ApprovalQuery");
    // The mapping reuses the address for other text of the same length, then of another length.
    const memory = codec().u8().buffer;
    const u16 = new Uint16Array(memory);
    u16[(ptr >>> 1) + 3] = "x".charCodeAt(0);
    expect(codec().readString(ptr)).toBe("AppxovalQuery");
    u16[(ptr >>> 1) + 3] = 0xd800;
    expect(() => codec().readString(ptr)).toThrow("invalid utf-16: lone surrogate found");
    new DataView(memory).setUint32(ptr - 4, 6, true);
    expect(codec().readString(ptr)).toBe("App");
  });
});

describe("BigInt and BigDecimal", () => {
  it("uses minimal little-endian two's complement", () => {
    const bytesOf = (n: bigint) => Array.from(codec().readBytes(codec().writeBigInt(n)));
    expect(bytesOf(0n)).toEqual([0]);
    expect(bytesOf(127n)).toEqual([127]);
    expect(bytesOf(128n)).toEqual([128, 0]);
    expect(bytesOf(-1n)).toEqual([255]);
    expect(bytesOf(-128n)).toEqual([128]);
    expect(bytesOf(-129n)).toEqual([127, 255]);
    expect(bytesOf((1n << 256n) - 1n)).toEqual([...new Array(32).fill(255), 0]);
    expect(bytesOf(-(1n << 255n))).toEqual([...new Array(31).fill(0), 128]);
    for (const n of [0n, 1n, -1n, 2n ** 64n, -(2n ** 64n) + 3n, (1n << 256n) - 1n, -(10n ** 60n)]) {
      expect(codec().readBigInt(codec().writeBigInt(n))).toBe(n);
    }
    expect(codec().readBigInt(codec().writeBytes(new Uint8Array(0)))).toBe(0n);
  });
  it("enforces graph-node's BigInt size limit when reading", () => {
    expect(() => codec().readBigInt(codec().writeBytes(new Uint8Array(435_412 / 8).fill(127)))).not.toThrow();
    expect(() => codec().readBigInt(codec().writeBytes(new Uint8Array(435_412 / 8 + 1).fill(127)))).toThrow("BigInt is too big, total bits 435416 (max 435412)");
  });
  it("normalizes BigDecimals as it reads them and checks the exponent range", () => {
    const bd = (digits: bigint, exp: bigint) => {
      const ptr = codec().allocObject(TypeId.BigDecimal, 8);
      codec().writeU32(ptr, codec().writeBigInt(digits));
      codec().writeU32(ptr + 4, codec().writeBigInt(exp));
      return ptr;
    };
    expect(codec().readBigDecimal(bd(1500n, -3n))).toEqual({ digits: 15n, exp: -1 });
    expect(codec().readBigDecimal(bd(0n, 7n))).toEqual({ digits: 0n, exp: 0 });
    expect(() => codec().readBigDecimal(bd(1n, -7000n))).toThrow("big decimal exponent `-7000` is outside the `-6143` to `6144` range");
  });
});

describe("values, entities, arrays", () => {
  it("round-trips every store Value kind, nested arrays included", () => {
    const values: StoreValue[] = [
      { kind: "String", value: "s" },
      { kind: "Int", value: -2147483648 },
      { kind: "BigDecimal", value: "-0.000123" },
      { kind: "Bool", value: false },
      { kind: "Array", value: [{ kind: "Array", value: [{ kind: "Int", value: 1 }] }, { kind: "Null" }] },
      { kind: "Null" },
      { kind: "Bytes", value: Uint8Array.from([1, 2]) },
      { kind: "BigInt", value: -(2n ** 200n) },
      { kind: "Int8", value: -(2n ** 63n) },
      { kind: "Timestamp", value: 2n ** 62n },
    ];
    for (const v of values) expect(codec().readStoreValue(codec().writeStoreValue(v))).toEqual(v);
  });
  it("writes entity fields sorted by name and reads them back", () => {
    const data = new Map<string, StoreValue>([
      ["zeta", { kind: "Int", value: 1 }],
      ["alpha", { kind: "String", value: "a" }],
    ]);
    const ptr = codec().writeEntity(data);
    const keys = codec().readArray(codec().readU32(ptr), (entry) => codec().readString(codec().readU32(entry)));
    expect(keys).toEqual(["alpha", "zeta"]);
    expect(codec().readEntity(ptr)).toEqual(new Map([["alpha", { kind: "String", value: "a" }], ["zeta", { kind: "Int", value: 1 }]]));
  });
  it("round-trips every ethereum.Value kind", () => {
    const values: EthereumValue[] = [
      { kind: "address", value: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a" },
      { kind: "fixedBytes", value: Uint8Array.from([1, 2, 3]) },
      { kind: "bytes", value: new Uint8Array(0) },
      { kind: "int", value: -(2n ** 255n) },
      { kind: "uint", value: (1n << 256n) - 1n },
      { kind: "bool", value: true },
      { kind: "string", value: "ok" },
      { kind: "fixedArray", value: [{ kind: "bool", value: false }] },
      { kind: "array", value: [] },
      { kind: "tuple", value: [{ kind: "uint", value: 0n }, { kind: "array", value: [{ kind: "string", value: "x" }] }] },
      { kind: "function", value: new Uint8Array(24).fill(7) },
    ];
    for (const v of values) expect(codec().readEthereumValue(codec().writeEthereumValue(v))).toEqual(v);
    // Hex input is accepted and comes back as canonical bytes / lowercase address.
    expect(codec().readEthereumValue(codec().writeEthereumValue({ kind: "address", value: "0xA16081F360e3847006dB660bae1c6d1b2e17eC2A" }))).toEqual(values[0]);
    expect(codec().readEthereumValue(codec().writeEthereumValue({ kind: "bytes", value: "0x0102" }))).toEqual({ kind: "bytes", value: Uint8Array.from([1, 2]) });
  });
  it("round-trips JSON values and string arrays", () => {
    const json = { kind: "object", value: [["a", { kind: "array", value: [{ kind: "number", value: "1.50" }, { kind: "null" }] }]] } as const;
    expect(codec().readJsonValue(codec().writeJsonValue(json as never))).toEqual(json);
    expect(codec().readStringArray(codec().writeStringArray(["a", "", "ç"]))).toEqual(["a", "", "ç"]);
  });
  it("rejects null pointers and out-of-bounds objects", () => {
    expect(() => codec().readString(0)).toThrow("unexpected null string pointer");
    const bytes = codec().writeBytes(Uint8Array.from([1, 2]));
    codec().writeU32(bytes + 8, 0x7fffffff);
    expect(() => codec().readBytes(bytes)).toThrow(/out of bounds of module memory/);
    const array = codec().writeStringArray(["a"]);
    codec().writeU32(array + 12, 0x10000000);
    expect(() => codec().readStringArray(array)).toThrow(HostError);
  });
});
