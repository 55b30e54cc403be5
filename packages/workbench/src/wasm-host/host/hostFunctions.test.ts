// Host function families through a module compiled like a graph-cli mapping (_test/functions.as.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { AbiCoder, keccak256, toUtf8Bytes } from "ethers";
import { createHarness, errorOf, fixtureModule, type Harness } from "../_test/harness.js";
import { HostError } from "../errors.js";
import type { EthereumCallRequest } from "../types.js";

const U256_MAX = (1n << 256n) - 1n;
let h: Harness;
const calls: EthereumCallRequest[] = [];
const created: [string, string[]][] = [];

beforeAll(async () => {
  await fixtureModule("functions.as.ts");
  h = await createHarness("functions.as.ts", {
    ethereumCall: (call) => {
      calls.push(call);
      if (call.functionParams[0]?.kind === "address" && call.functionParams[0].value === "0x0000000000000000000000000000000000000bad") return null;
      return [{ kind: "uint", value: 42n }];
    },
    ethereumGetBalance: (address) => (address.endsWith("01") ? 10n ** 18n : 0n),
    ethereumHasCode: (address) => address.endsWith("01"),
    ensNameByHash: (hash) => (hash === "0xabc" ? "vitalik.eth" : null),
    ipfsCat: (hash) => (hash === "QmItems" ? new TextEncoder().encode('{"id":"a"}\n{"id":"b"}\n') : hash === "QmText" ? new TextEncoder().encode("hello") : null),
    dataSource: {
      name: "Fixture",
      address: "0x00000000000000000000000000000000000000aa",
      network: "localhost",
      context: new Map([["k", { kind: "String", value: "ctx-value" }]]),
      templates: ["Pool"],
      onCreate: (name, params) => created.push([name, params]),
    },
  });
}, 180_000);

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
const writeBytes = (b: Uint8Array) => h.instance.context.codec.writeBytes(b);

describe("bigInt.*", () => {
  const op = (name: string, a: string | bigint, b: string | bigint) => h.callString("bigIntOp", name, String(a), String(b));

  it("does arithmetic on negatives, zero and 2^256-1", () => {
    expect(op("plus", U256_MAX, 1n)).toBe((U256_MAX + 1n).toString());
    expect(op("minus", 5n, 10n)).toBe("-5");
    expect(op("times", -20n, 5n)).toBe("-100");
    expect(op("times", U256_MAX, U256_MAX)).toBe((U256_MAX * U256_MAX).toString());
    expect(op("div", -7n, 2n)).toBe("-3");
    expect(op("mod", -7n, 2n)).toBe("-1");
    expect(op("pow", -3n, 3n)).toBe("-27");
    expect(op("pow", 2n, 255n)).toBe((2n ** 255n).toString());
    expect(op("shl", 1n, 255n)).toBe((1n << 255n).toString());
    expect(op("shr", -5n, 1n)).toBe("-3");
    expect(op("or", -8n, 3n)).toBe("-5");
    expect(op("and", -1n, U256_MAX)).toBe(U256_MAX.toString());
    expect(op("plus", 0n, 0n)).toBe("0");
  });

  it("prints graph-node's hex forms", () => {
    expect(op("hex", 0n, 0n)).toBe("0x0");
    expect(op("hex", 1n, 0n)).toBe("0x1");
    expect(op("hex", 255n, 0n)).toBe("0xff");
    expect(op("hex", 256n, 0n)).toBe("0x100");
    expect(op("hex", U256_MAX, 0n)).toBe("0x" + "f".repeat(64));
    expect(op("hex", -255n, 0n)).toBe("0xff");
  });

  it("fails deterministically on division by zero and bad strings", () => {
    const div = errorOf(() => op("div", 5n, 0n));
    expect(div.message).toBe("attempted to divide BigInt `5` by zero");
    expect(div.deterministic).toBe(true);
    expect(errorOf(() => op("mod", 5n, 0n)).message).toBe("attempted to calculate the remainder of `5` with a divisor of zero");
    expect(errorOf(() => h.callString("bigIntOp", "plus", "12a", "1")).message).toBe("string is not a BigInt: `12a`");
    expect(errorOf(() => op("divDecimal", 1n, "0")).message).toMatch(/divide BigDecimal `1` by zero/);
  });

  it("round-trips BigInt bytes with AssemblyScript's own constructors", () => {
    const codec = h.instance.context.codec;
    for (const n of [0, 1, -1, 127, 128, -128, -129, 2147483647, -2147483648]) {
      expect(codec.readBigInt(h.call("bigIntFromI32", n) as number)).toBe(BigInt(n));
    }
    for (const n of [0n, -1n, 255n, -256n, U256_MAX, -U256_MAX, 1n << 300n]) {
      expect(h.callString("bigIntToStringInAs", codec.writeBigInt(n))).toBe(n.toString());
    }
    expect(h.call("bigIntToI32", codec.writeBigInt(-123456n))).toBe(-123456);
  });

  it("divides by a BigDecimal", () => {
    expect(op("divDecimal", 1n, "3")).toBe("0.3333333333333333333333333333333333");
  });
});

describe("bigDecimal.*", () => {
  const op = (name: string, a: string, b: string) => h.callString("bigDecimalOp", name, a, b);
  it("computes with graph-node's precision and string forms", () => {
    expect(op("plus", "0.1", "0.2")).toBe("0.3");
    expect(op("minus", "1", "1.5")).toBe("-0.5");
    expect(op("times", "1.5", "-2")).toBe("-3");
    expect(op("div", "2", "3")).toBe("0.6666666666666666666666666666666667");
    expect(op("div", "-2", "3")).toBe("-0.6666666666666666666666666666666666");
    expect(op("equals", "1.0", "1")).toBe("true");
    expect(op("parse", "1e-7", "0")).toBe("0.0000001");
    expect(op("parse", "115792089237316195423570985008687907853269984665640564039457584007913129639935", "0")).toBe(
      "115792089237316195423570985008687907853269984665640564039457584007913100000000"
        .slice(0, 34) + "0".repeat(78 - 34),
    );
  });
  it("fails on division by zero and bad strings", () => {
    expect(errorOf(() => op("div", "1.5", "0")).message).toBe("attempted to divide BigDecimal `1.5` by zero");
    expect(errorOf(() => op("parse", "1,5", "0")).message).toBe("string  is not a BigDecimal: '1,5'");
  });
  it("reads and writes BigDecimal objects", () => {
    const codec = h.instance.context.codec;
    const ptr = h.call("bigDecimalEcho", codec.writeBigDecimal({ digits: -15n, exp: -1 })) as number;
    expect(codec.readBigDecimal(ptr)).toEqual({ digits: -15n, exp: -1 });
  });
});

describe("typeConversion.* and crypto", () => {
  it("converts bytes to lowercase 0x hex, strings and base58", () => {
    expect(h.callString("bytesToHex", writeBytes(bytes("deADbeef")))).toBe("0xdeadbeef");
    expect(h.callString("bytesToHex", writeBytes(new Uint8Array(0)))).toBe("0x");
    expect(h.callString("bytesToString", writeBytes(new TextEncoder().encode("héllo\u0000\u0000")))).toBe("héllo");
    // Invalid UTF-8 becomes U+FFFD per maximal invalid sequence, like String::from_utf8_lossy.
    expect(h.callString("bytesToString", writeBytes(Uint8Array.from([0x61, 0xff, 0x62, 0xe2, 0x82, 0x63])))).toBe("a\ufffdb\ufffdc");
    // Only trailing NULs are trimmed by bytesToString; reading any string back strips the rest.
    expect(h.callString("bytesToString", writeBytes(Uint8Array.from([0x00, 0x61])))).toBe("a");
    expect(h.callString("bytesToBase58", writeBytes(bytes("12207D5A99F603F231D53A4F39D1521F98D2E8BB279CF29BEBFD0687DC98458E7F89")))).toBe(
      "QmWmyoMoctfbAaiEs2G46gpeUmhqFRDW6KWo64y5r581Vz",
    );
  });

  it("parses addresses and rejects invalid hex", () => {
    const codec = h.instance.context.codec;
    const addr = "0xA16081F360e3847006dB660bae1c6d1b2e17eC2A";
    expect(Buffer.from(codec.readBytes(h.call("stringToAddress", addr) as number)).toString("hex")).toBe(addr.slice(2).toLowerCase());
    expect(codec.readBytes(h.call("stringToAddress", addr.slice(2)) as number).length).toBe(20);
    for (const bad of ["0x123", "0xZZ6081F360e3847006dB660bae1c6d1b2e17eC2A", ""]) {
      const err = errorOf(() => h.call("stringToAddress", bad));
      expect(err.message).toBe(`Failed to convert string to Address: '${bad}'`);
      expect(err.deterministic).toBe(true);
    }
  });

  it("hashes with keccak256", () => {
    const out = h.instance.context.codec.readBytes(h.call("keccak", writeBytes(toUtf8Bytes("eth"))) as number);
    expect(Buffer.from(out).toString("hex")).toBe("4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47069d3d7f0");
    expect("0x" + Buffer.from(out).toString("hex")).toBe(keccak256(toUtf8Bytes("eth")));
  });
});

describe("json.*", () => {
  const json = (text: string) => writeBytes(new TextEncoder().encode(text));
  it("parses with number text kept and object keys sorted", () => {
    const value = h.instance.context.codec.readJsonValue(h.call("jsonParse", json('{"b":[1,2.50,-3e2],"a":{"x":null,"y":true},"b2":"s\\u00e9"}')) as number);
    expect(value).toEqual({
      kind: "object",
      value: [
        ["a", { kind: "object", value: [["x", { kind: "null" }], ["y", { kind: "bool", value: true }]] }],
        ["b", { kind: "array", value: [{ kind: "number", value: "1" }, { kind: "number", value: "2.50" }, { kind: "number", value: "-3e2" }] }],
        ["b2", { kind: "string", value: "sé" }],
      ],
    });
  });
  it("fails fromBytes but not try_fromBytes on bad JSON", () => {
    expect(errorOf(() => h.call("jsonParse", json("{bad"))).message).toMatch(/^Failed to parse JSON from byte array/);
    expect(h.call("jsonTryIsOk", json("{bad"))).toBe(0);
    expect(h.call("jsonTryIsOk", json("[1]"))).toBe(1);
  });
  it("converts numbers like Rust's parsers", () => {
    expect(h.call("jsonToI64", "-9223372036854775808")).toBe(-(2n ** 63n));
    expect(errorOf(() => h.call("jsonToI64", "9223372036854775808")).message).toBe("JSON `9223372036854775808` cannot be parsed as i64");
    expect(BigInt.asUintN(64, h.call("jsonToU64", "18446744073709551615") as bigint)).toBe(2n ** 64n - 1n);
    expect(errorOf(() => h.call("jsonToU64", "-1")).message).toBe("JSON `-1` cannot be parsed as u64");
    expect(h.call("jsonToF64", "1.5e3")).toBe(1500);
    expect(errorOf(() => h.call("jsonToF64", "abc")).message).toBe("JSON `abc` cannot be parsed as f64");
    expect(h.callString("jsonToBigInt", U256_MAX.toString())).toBe(U256_MAX.toString());
    expect(errorOf(() => h.call("jsonToBigInt", "1.5")).message).toBe("JSON `1.5` is not a decimal string");
  });
});

describe("yaml.*", () => {
  const yaml = (text: string) => writeBytes(new TextEncoder().encode(text));
  it("parses maps, sequences, numbers, tags", () => {
    expect(h.callString("yamlDescribe", yaml("a: 1\nb: [true, null, 'x', 1.5]\nc: !Ref val\n"))).toBe("{'a':n:1,'b':[true,null,'x',n:1.5],'c':!Ref 'val'}");
    expect(h.callString("yamlDescribe", yaml("- yes\n- 0x10\n"))).toBe("['yes',n:16]");
  });
  it("fails on invalid YAML, try_fromBytes returns an error result", () => {
    expect(errorOf(() => h.call("yamlDescribe", yaml("a: [1, 2"))).message).toMatch(/failed to parse YAML/);
    expect(h.call("yamlTryIsOk", yaml("a: [1, 2"))).toBe(0);
    expect(h.call("yamlTryIsOk", yaml("a: 1"))).toBe(1);
  });
});

describe("ethereum.*", () => {
  const codec = () => h.instance.context.codec;
  it("encodes values with the ABI coder", () => {
    const value = codec().writeEthereumValue({
      kind: "tuple",
      value: [
        { kind: "address", value: "0x00000000000000000000000000000000000000aa" },
        { kind: "uint", value: U256_MAX },
        { kind: "string", value: "hi" },
      ],
    });
    const encoded = codec().readBytes(h.call("encodeValue", value) as number);
    const expected = AbiCoder.defaultAbiCoder().encode(["(address,uint256,string)"], [["0x00000000000000000000000000000000000000aa", U256_MAX, "hi"]]);
    expect("0x" + Buffer.from(encoded).toString("hex")).toBe(expected);
  });
  it("decodes values and answers null on bad data", () => {
    const data = AbiCoder.defaultAbiCoder().encode(["(int8,bytes,bool[])"], [[-5, "0x0102", [true, false]]]);
    const ptr = h.call("decodeValue", "(int8,bytes,bool[])", writeBytes(bytes(data))) as number;
    expect(codec().readEthereumValue(ptr)).toEqual({
      kind: "tuple",
      value: [
        { kind: "int", value: -5n },
        { kind: "bytes", value: Uint8Array.from([1, 2]) },
        { kind: "array", value: [{ kind: "bool", value: true }, { kind: "bool", value: false }] },
      ],
    });
    expect(h.call("decodeValue", "uint256", writeBytes(bytes("01")))).toBe(0);
    expect(h.call("decodeValue", "notatype", writeBytes(bytes("01")))).toBe(0);
  });
  it("calls contracts through the host callback, reverts are null", () => {
    const addr = (hex: string) => writeBytes(bytes(hex));
    expect(h.callString("callBalanceOf", addr("00000000000000000000000000000000000000aa"), addr("0000000000000000000000000000000000000001"))).toBe("42");
    expect(calls.at(-1)).toMatchObject({
      contractName: "Token",
      contractAddress: "0x00000000000000000000000000000000000000aa",
      functionName: "balanceOf",
      functionSignature: "balanceOf(address):(uint256)",
      functionParams: [{ kind: "address", value: "0x0000000000000000000000000000000000000001" }],
    });
    expect(h.callString("callBalanceOf", addr("00000000000000000000000000000000000000aa"), addr("0000000000000000000000000000000000000bad"))).toBe("reverted");
  });
  it("answers getBalance and hasCode from apiVersion 0.0.9, and refuses them before, as graph-node", async () => {
    const v9 = await createHarness("functions.as.ts", {
      apiVersion: "0.0.9",
      ethereumGetBalance: (address) => (address.endsWith("01") ? 10n ** 18n : 0n),
      ethereumHasCode: (address) => address.endsWith("01"),
    });
    const addr = (hex: string) => v9.instance.context.codec.writeBytes(bytes(hex));
    expect(v9.callString("balanceOf", addr("0000000000000000000000000000000000000001"))).toBe("1000000000000000000");
    expect(v9.call("hasCode", addr("0000000000000000000000000000000000000001"))).toBe(1);
    expect(v9.call("hasCode", addr("0000000000000000000000000000000000000002"))).toBe(0);
    const old = errorOf(() => h.call("hasCode", writeBytes(bytes("0000000000000000000000000000000000000001"))));
    expect(old.message).toContain("ethereum.hasCode call is not supported before API version 0.0.9");
    expect(old.deterministic).toBe(true);
  });
});

describe("log, abort, dataSource, ens, ipfs", () => {
  it("logs at every level; critical aborts the handler", () => {
    h.logs.length = 0;
    for (const level of [1, 2, 3, 4]) h.call("logAt", level, `m${level}`);
    expect(h.logs).toEqual([["error", "m1"], ["warning", "m2"], ["info", "m3"], ["debug", "m4"]]);
    const err = errorOf(() => h.call("logAt", 0, "boom"));
    expect(err.code).toBe("CRITICAL_LOG");
    expect(err.message).toBe("Critical error logged in mapping with log message: boom");
    expect(h.logs.at(-1)).toEqual(["critical", "boom"]);
  });

  it("aborts with message, file, line and column", () => {
    const err = errorOf(() => h.call("failWith", "not true"));
    expect(err.code).toBe("ABORT");
    expect(err.abort).toMatchObject({ message: "not true", file: "packages/workbench/src/wasm-host/_test/functions.as.ts" });
    expect(err.abort!.line).toBeGreaterThan(0);
    expect(err.abort!.column).toBeGreaterThan(0);
    expect(err.message).toBe(`Mapping aborted at packages/workbench/src/wasm-host/_test/functions.as.ts, line ${err.abort!.line}, column ${err.abort!.column}, with message: not true`);
    expect(err.handler).toBe("failWith");
  });

  it("exposes the data source and creates from templates", () => {
    expect(Buffer.from(h.instance.context.codec.readBytes(h.call("dsAddress") as number)).toString("hex")).toBe("00000000000000000000000000000000000000aa");
    expect(h.callString("dsNetwork")).toBe("localhost");
    expect(h.callString("dsContextString", "k")).toBe("ctx-value");
    h.call("dsCreate", "Pool", "0x01");
    expect(created).toEqual([["Pool", ["0x01"]]]);
    expect(errorOf(() => h.call("dsCreate", "Nope", "0x01")).message).toBe(
      "Failed to create data source from name `Nope`: No template with this name in parent data source `Fixture`. Available names: Pool.",
    );
  });

  it("answers a file data source's path as text bytes, and keeps it to its entities list", () => {
    const fixture = { name: "Fixture", address: "0x00000000000000000000000000000000000000aa", network: "localhost", context: null, templates: ["Pool"] };
    try {
      h.instance.setDataSource({ ...fixture, name: "Metadata", kind: "file/ipfs", address: "QmFile/a.json", entities: ["Item"] });
      expect(new TextDecoder().decode(h.instance.context.codec.readBytes(h.call("dsAddress") as number))).toBe("QmFile/a.json");
      h.instance.takeChanges();
      h.call("ipfsMapItems", "QmItems");
      expect(h.instance.takeChanges()).toHaveLength(2);
      h.instance.setDataSource({ ...fixture, name: "Metadata", kind: "file/ipfs", address: "QmFile", entities: ["Other", "More"] });
      // ipfs.map wraps the callback's error, as graph-node does.
      expect(errorOf(() => h.call("ipfsMapItems", "QmItems")).message).toMatch(
        /entity type `Item` is not on the 'entities' list for data source `Metadata`\. Hint: Add `Item` to the 'entities' list, which currently is: `Other, More`\.$/,
      );
    } finally {
      h.instance.setDataSource({ ...fixture, context: new Map([["k", { kind: "String", value: "ctx-value" }]]), onCreate: (name, params) => created.push([name, params]) });
    }
  });

  it("looks up ENS names", () => {
    expect(h.callString("ensName", "0xabc")).toBe("vitalik.eth");
    expect(h.callString("ensName", "0xdef")).toBe("<null>");
  });

  it("reads IPFS files and maps JSON lines through a callback", () => {
    expect(new TextDecoder().decode(h.instance.context.codec.readBytes(h.call("ipfsCat", "QmText") as number))).toBe("hello");
    expect(h.call("ipfsCat", "QmMissing")).toBe(0);
    h.instance.takeChanges();
    h.call("ipfsMapItems", "QmItems");
    expect(h.instance.takeChanges().map((c) => [c.id, c.op === "set" ? c.data.get("name") : null])).toEqual([
      ["a", { kind: "String", value: "from-ipfs" }],
      ["b", { kind: "String", value: "from-ipfs" }],
    ]);
  });

  it("marks failures of the node's own services (RPC) as non-deterministic", async () => {
    const down = await createHarness("functions.as.ts", {
      ethereumCall: () => {
        throw new Error("connection refused");
      },
    });
    const zero = () => down.instance.context.codec.writeBytes(new Uint8Array(20));
    let error: unknown;
    try {
      down.call("callBalanceOf", zero(), zero());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).deterministic).toBe(false);
    expect((error as HostError).message).toBe("connection refused");
    expect((error as HostError).handler).toBe("callBalanceOf");
  });

  it("fails ipfs and ens deterministically without a source, like graph-node", async () => {
    const bare = await createHarness("functions.as.ts");
    expect(errorOf(() => bare.call("ipfsCat", "QmText")).message).toBe("`ipfs.cat` is deprecated. Improved support for IPFS will be added in the future");
    expect(errorOf(() => bare.call("ensName", "0xabc")).message).toBe("Missing ENS data: see https://github.com/graphprotocol/ens-rainbow");
    const zero = () => bare.instance.context.codec.writeBytes(new Uint8Array(20));
    const err = errorOf(() => bare.call("callBalanceOf", zero(), zero()));
    expect(err.code).toBe("ETHEREUM");
    expect(err.message).toBe("ethereum.call is not available: cannot call Token.balanceOf(address):(uint256)");
  });
});
