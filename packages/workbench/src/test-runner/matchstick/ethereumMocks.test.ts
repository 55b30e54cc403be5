import { describe, expect, it } from "vitest";
import type { EthereumValue } from "../../wasm-host/types.js";
import { addressDisplay, collectTypes, createEthereumMocks, parseParamType, tokenDisplay, typeCheck } from "./ethereumMocks.js";

const ADDRESS = "0x90cba2bbb19ecc291a12066fd8329d65fa1f1947";

describe("ethabi display forms", () => {
  it("prints ints as two's-complement U256 hex and addresses abbreviated", () => {
    expect(tokenDisplay({ kind: "uint", value: 255n })).toBe("ff");
    expect(tokenDisplay({ kind: "int", value: -1n })).toBe("f".repeat(64));
    expect(tokenDisplay({ kind: "int", value: 255n })).toBe(tokenDisplay({ kind: "uint", value: 255n }));
    expect(tokenDisplay({ kind: "array", value: [{ kind: "bool", value: true }, { kind: "string", value: "x" }] })).toBe("[true,x]");
    expect(tokenDisplay({ kind: "tuple", value: [{ kind: "address", value: ADDRESS }] })).toBe(`(${ADDRESS.slice(2)})`);
    expect(addressDisplay(ADDRESS)).toBe("0x90cb…1947");
  });

  it("parses signature types like Matchstick's get_kind", () => {
    expect(collectTypes("address,(uint256,bool),string")).toEqual(["address", "(uint256,bool)", "string"]);
    expect(parseParamType("uint256[]")).toEqual({ kind: "array", inner: { kind: "uint", size: 256 } });
    expect(parseParamType("bytes32")).toEqual({ kind: "fixedBytes", size: 32 });
    expect(parseParamType("address[2]")).toEqual({ kind: "fixedArray", inner: { kind: "address" }, size: 2 });
    expect(() => parseParamType("int")).toThrow(/Unrecognized argument type/);
    expect(typeCheck({ kind: "fixedBytes", value: "0x0102" }, { kind: "fixedBytes", size: 32 })).toBe(true);
    expect(typeCheck({ kind: "uint", value: 1n }, { kind: "int", size: 256 })).toBe(false);
  });
});

describe("mocked contract calls", () => {
  const args: EthereumValue[] = [{ kind: "address", value: ADDRESS }];

  it("answers the mocked values, null for a mocked revert, and fails for an unmocked call", () => {
    const mocks = createEthereumMocks();
    mocks.mock({ address: ADDRESS, name: "balanceOf", signature: "balanceOf(address):(uint256)", args, returns: [{ kind: "uint", value: 7n }], reverts: false });
    mocks.mock({ address: ADDRESS, name: "name", signature: "name():(string)", args: [], returns: [], reverts: true });
    expect(mocks.call(ADDRESS, "balanceOf", "balanceOf(address):(uint256)", args)).toEqual([{ kind: "uint", value: 7n }]);
    expect(mocks.call(ADDRESS, "name", "name():(string)", [])).toBeNull();
    expect(() => mocks.call(ADDRESS, "balanceOf", "balanceOf(address):(uint256)", [{ kind: "address", value: "0x" + "00".repeat(20) }])).toThrow(
      /Could not find a mocked function/,
    );
  });

  it("rejects a name that does not match the signature, a wrong argument count or kind", () => {
    const mocks = createEthereumMocks();
    const base = { address: ADDRESS, returns: [], reverts: false };
    expect(() => mocks.mock({ ...base, name: "foo", signature: "bar(address):(uint256)", args })).toThrow(/should match the name/);
    expect(() => mocks.mock({ ...base, name: "bar", signature: "bar(address,uint256):(uint256)", args })).toThrow(/expected 2 arguments, but received 1/);
    expect(() => mocks.mock({ ...base, name: "bar", signature: "bar(uint256):(uint256)", args })).toThrow(/parameters mismatch at position 1/);
    expect(mocks.size).toBe(0);
  });
});
