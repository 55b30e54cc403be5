import { id, keccak256, toUtf8Bytes } from "ethers";
import { describe, expect, it } from "vitest";
import { jsonEqual } from "./assertions.js";
import { encodeCall, encodeEvent, encodeReturns, functionFragment } from "./abiJson.js";
import { buildMockChain } from "./mockChain.js";
import { parseTestFile, type TestFile } from "./testFile.js";

describe("a gnd test file", () => {
  it("is read with gnd's defaults: lists may be left out, a block's fields are optional", () => {
    const test = parseTestFile({ name: "t", blocks: [{}, { number: 7, events: [{ address: "0xAAAA000000000000000000000000000000000000", event: "E()" }] }] }, "t.json");
    expect(test.files).toEqual([]);
    expect(test.assertions).toEqual([]);
    expect(test.blocks[0]).toMatchObject({ number: null, hash: null, timestamp: null, events: [], ethCalls: [] });
    expect(test.blocks[1]!.events[0]).toEqual({ address: "0xaaaa000000000000000000000000000000000000", event: "E()", params: {}, txHash: null });
  });

  it("is refused with what is wrong and where", () => {
    expect(() => parseTestFile([], "t.json")).toThrow("t.json: expected an object");
    expect(() => parseTestFile({ blocks: [] }, "t.json")).toThrow("t.json: name: expected a string");
    expect(() => parseTestFile({ name: "t", blocks: [{ number: -1 }] }, "t.json")).toThrow("t.json: blocks[0].number: expected a non-negative integer");
    expect(() => parseTestFile({ name: "t", blocks: [{ events: [{ address: "0x12", event: "E()" }] }] }, "t.json")).toThrow("blocks[0].events[0].address: expected 0x and 40 hex digits");
    expect(() => parseTestFile({ name: "t", assertions: [{ query: "{ a }" }] }, "t.json")).toThrow("assertions[0]: missing field `expected`");
    expect(() => parseTestFile({ name: "t", files: [{ cid: "Qm1" }] }, "t.json")).toThrow("MockFile entry for CID 'Qm1' must have either 'content' or 'file'");
  });
});

describe("events and calls, encoded as gnd encodes them", () => {
  it("puts indexed values in topics (strings hashed) and the rest in data", () => {
    const { topics, data } = encodeEvent("Named(string indexed name, address indexed who, int256 delta, bytes4 tag)", { name: "alice", who: "0xAAAA000000000000000000000000000000000000", delta: "-5", tag: "0x12" }, "e");
    expect(topics[0]).toBe(id("Named(string,address,int256,bytes4)"));
    expect(topics[1]).toBe(keccak256(toUtf8Bytes("alice")));
    expect(topics[2]).toBe(`0x${"0".repeat(24)}aaaa000000000000000000000000000000000000`);
    // -5 as two's complement, then bytes4 0x12 padded on the right.
    expect(data).toBe(`0x${"f".repeat(63)}b12${"0".repeat(62)}`);
    expect(() => encodeEvent("E(uint256 a)", {}, "e")).toThrow("e: Missing parameter: a");
    expect(() => encodeEvent("E(uint8 a)", { a: 1.5 }, "e")).toThrow("does not fit in 64 bits");
  });

  it("reads gnd's and graph-cli's function signatures, and checks the argument counts", () => {
    const fragment = functionFragment("balanceOf(address)(uint256)", "c");
    expect(fragment.format()).toBe("balanceOf(address)");
    expect(fragment.outputs.map((o) => o.type)).toEqual(["uint256"]);
    expect(functionFragment("getReserves():(uint112,uint112,uint32)", "c").outputs).toHaveLength(3);
    expect(encodeCall(fragment, ["0xaaaa000000000000000000000000000000000000"], "c")).toBe(`${id("balanceOf(address)").slice(0, 10)}${"0".repeat(24)}aaaa000000000000000000000000000000000000`);
    expect(encodeReturns(fragment, ["0x10"], "c")).toBe(`0x${"0".repeat(62)}10`);
    expect(() => encodeCall(fragment, [], "c")).toThrow("expected 1 parameters, got 0");
  });
});

describe("the mock chain", () => {
  const test = (blocks: TestFile["blocks"]): TestFile => ({ name: "t", files: [], assertions: [], blocks });
  const empty = { number: null, hash: null, timestamp: null, events: [], ethCalls: [], getBalanceCalls: [], hasCodeCalls: [] };

  it("numbers blocks from the start block, with timestamp = number, and links them", () => {
    const chain = buildMockChain(test([empty, empty, { ...empty, number: 5, timestamp: 99 }]), 3);
    expect(chain.fileBlocks).toEqual([3, 4, 5]);
    expect(chain.head).toBe(5);
    expect(chain.block(4)).toMatchObject({ timestamp: 4, parentHash: chain.block(3)!.hash, hash: keccak256("0x0000000000000004") });
    expect(chain.block(5)).toMatchObject({ timestamp: 99, parentHash: chain.block(4)!.hash });
    expect(chain.block(6)).toBeNull();
  });

  it("fills a gap with linked empty blocks, and refuses numbers that go back", () => {
    const chain = buildMockChain(test([{ ...empty, number: 2 }, { ...empty, number: 5 }]), 0);
    expect(chain.block(3)!.logs).toEqual([]);
    expect(chain.block(4)!.parentHash).toBe(chain.block(3)!.hash);
    expect(chain.block(5)!.parentHash).toBe(chain.block(4)!.hash);
    expect(() => buildMockChain(test([{ ...empty, number: 5 }, { ...empty, number: 5 }]), 0)).toThrow("blocks[1]: block number 5 does not follow block 5");
  });
});

describe("gnd's comparison of answers", () => {
  it("ignores array order, coerces a number to its text, and wants the same keys", () => {
    expect(jsonEqual({ a: [{ id: "1" }, { id: "2" }] }, { a: [{ id: "2" }, { id: "1" }] })).toBe(true);
    expect(jsonEqual({ v: "10" }, { v: 10 })).toBe(true);
    expect(jsonEqual({ v: "10" }, { v: 11 })).toBe(false);
    expect(jsonEqual({ v: true }, { v: "true" })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, 1, 2], [1, 2, 2])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});
