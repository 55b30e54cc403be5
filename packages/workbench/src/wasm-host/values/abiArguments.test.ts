import { FunctionFragment } from "ethers/abi";
import { describe, expect, it } from "vitest";
import { AbiArgumentError, fitCallArguments } from "./abiArguments.js";

const inputs = (signature: string) => FunctionFragment.from(`function ${signature}`).inputs;
const hex = (bytes: unknown) => `0x${Buffer.from(bytes as Uint8Array).toString("hex")}`;

describe("fitCallArguments", () => {
  it("right-pads a short fixed-bytes value to its parameter's size (Solidity's bytesN layout)", () => {
    const [fitted] = fitCallArguments(inputs("f(bytes32)"), [{ kind: "fixedBytes", value: "0x1234" }]);
    expect(fitted?.kind).toBe("fixedBytes");
    expect(hex(fitted?.value)).toBe(`0x1234${"00".repeat(30)}`);
    expect(hex(fitCallArguments(inputs("f(bytes4)"), [{ kind: "fixedBytes", value: "0xab" }])[0]?.value)).toBe("0xab000000");
  });

  it("accepts integers that fit the parameter's width, in two's complement for int", () => {
    expect(fitCallArguments(inputs("f(uint8,int8,int8)"), [
      { kind: "uint", value: 255n },
      { kind: "int", value: -128n },
      { kind: "int", value: 127n },
    ])).toHaveLength(3);
  });

  it("refuses a wider or other value with graph-node's type-mismatch text", () => {
    expect(() => fitCallArguments(inputs("f(uint8)"), [{ kind: "uint", value: 256n }])).toThrow("type mismatch, decoded value Uint(256, 9) is not of kind Uint(8)");
    expect(() => fitCallArguments(inputs("f(int8)"), [{ kind: "int", value: 128n }])).toThrow("is not of kind Int(8)");
    expect(() => fitCallArguments(inputs("f(bytes2)"), [{ kind: "fixedBytes", value: "0x123456" }])).toThrow(AbiArgumentError);
    expect(() => fitCallArguments(inputs("f(address)"), [{ kind: "uint", value: 1n }])).toThrow("is not of kind Address");
    expect(() => fitCallArguments(inputs("f(uint256[2])"), [{ kind: "fixedArray", value: [{ kind: "uint", value: 1n }] }])).toThrow("FixedArray(Uint(256), 2)");
  });

  it("refuses a wrong number of values", () => {
    expect(() => fitCallArguments(inputs("f(bool,bool)"), [{ kind: "bool", value: true }])).toThrow(
      "error encoding input call data: unexpected number of values; expected 2, got 1",
    );
  });

  it("fits values inside arrays and tuples", () => {
    const [fitted] = fitCallArguments(inputs("f((bytes8,uint16)[])"), [
      { kind: "array", value: [{ kind: "tuple", value: [{ kind: "fixedBytes", value: "0x01" }, { kind: "uint", value: 7n }] }] },
    ]);
    const tuple = (fitted as { value: { value: { value: unknown }[] }[] }).value[0]!;
    expect(hex(tuple.value[0]!.value)).toBe("0x0100000000000000");
  });
});
