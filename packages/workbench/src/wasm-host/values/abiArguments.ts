// Call arguments fitted to a function's declared input types, as graph-node fits them before it
// encodes an eth_call. graph-ts loses a value's declared width (a `Bytes` of 2 for a bytes32, a BigInt
// for a uint8), so graph-node accepts any value that is no wider than its parameter's type and widens it:
// fixed bytes are right-padded with zeros (Solidity's bytesN layout), integers keep their value. A wider
// value, or one of another kind, is a type mismatch; a wrong number of values an encoding error.
import type { ParamType } from "ethers/abi";
import { toBytes } from "./hex.js";
import type { EthereumValue } from "./ethereumValue.js";

/** Why the arguments cannot be encoded; `message` is graph-node's `ContractCallError` text. */
export class AbiArgumentError extends Error {
  override name = "AbiArgumentError";
}

/** Bits needed for `v` in two's complement (alloy's `I256::bits`). */
function signedBits(v: bigint): number {
  const magnitude = v < 0n ? -v : v;
  const bits = magnitude === 0n ? 0 : magnitude.toString(2).length;
  const powerOfTwo = magnitude !== 0n && (magnitude & (magnitude - 1n)) === 0n;
  return v < 0n && powerOfTwo ? bits : bits + 1;
}

const unsignedBits = (v: bigint): number => (v === 0n ? 0 : v.toString(2).length);

/** The value as graph-node's alloy `DynSolValue` Debug-prints it, for the type-mismatch message. */
function describeValue(value: EthereumValue): string {
  switch (value.kind) {
    case "address":
      return `Address(${typeof value.value === "string" ? value.value.toLowerCase() : Buffer.from(value.value).toString("hex")})`;
    case "fixedBytes":
      return `FixedBytes(0x${Buffer.from(toBytes(value.value)).toString("hex").padEnd(64, "0")}, ${toBytes(value.value).length})`;
    case "bytes":
      return `Bytes(0x${Buffer.from(toBytes(value.value)).toString("hex")})`;
    case "function":
      return `Function(0x${Buffer.from(toBytes(value.value)).toString("hex")})`;
    case "int":
      return `Int(${value.value}, ${signedBits(value.value)})`;
    case "uint":
      return `Uint(${value.value}, ${unsignedBits(value.value)})`;
    case "bool":
      return `Bool(${value.value})`;
    case "string":
      return `String(${JSON.stringify(value.value)})`;
    case "fixedArray":
      return `FixedArray([${value.value.map(describeValue).join(", ")}])`;
    case "array":
      return `Array([${value.value.map(describeValue).join(", ")}])`;
    case "tuple":
      return `Tuple([${value.value.map(describeValue).join(", ")}])`;
  }
}

/** The type as alloy's `DynSolType` Debug-prints it. */
function describeType(type: ParamType): string {
  if (type.isTuple()) return `Tuple([${type.components!.map(describeType).join(", ")}])`;
  if (type.isArray()) return type.arrayLength === -1 ? `Array(${describeType(type.arrayChildren!)})` : `FixedArray(${describeType(type.arrayChildren!)}, ${type.arrayLength})`;
  const base = type.baseType;
  const sized = /^(u?int|bytes)(\d+)$/.exec(base);
  if (sized) return `${sized[1] === "uint" ? "Uint" : sized[1] === "int" ? "Int" : "FixedBytes"}(${sized[2]})`;
  return base.charAt(0).toUpperCase() + base.slice(1);
}

/** The value widened to `type`, or null when graph-node's type check refuses it. */
function fit(value: EthereumValue, type: ParamType): EthereumValue | null {
  if (type.isTuple()) {
    const components = type.components!;
    if (value.kind !== "tuple" || value.value.length !== components.length) return null;
    const items = value.value.map((v, i) => fit(v, components[i]!));
    return items.every((x) => x !== null) ? { kind: "tuple", value: items as EthereumValue[] } : null;
  }
  if (type.isArray()) {
    const fixed = type.arrayLength !== -1;
    if (value.kind !== (fixed ? "fixedArray" : "array") || (fixed && value.value.length !== type.arrayLength)) return null;
    const items = value.value.map((v) => fit(v, type.arrayChildren!));
    return items.every((x) => x !== null) ? { kind: value.kind, value: items as EthereumValue[] } : null;
  }
  const base = type.baseType;
  const sized = /^(u?int|bytes)(\d+)$/.exec(base);
  switch (value.kind) {
    case "fixedBytes": {
      if (sized?.[1] !== "bytes") return null;
      const size = Number(sized[2]);
      const bytes = toBytes(value.value);
      if (bytes.length > size) return null;
      const padded = new Uint8Array(size);
      padded.set(bytes);
      return { kind: "fixedBytes", value: padded };
    }
    case "uint":
      return sized?.[1] === "uint" && unsignedBits(value.value) <= Number(sized[2]) ? value : null;
    case "int":
      return sized?.[1] === "int" && signedBits(value.value) <= Number(sized[2]) ? value : null;
    case "address":
    case "bool":
    case "string":
    case "bytes":
    case "function":
      return base === value.kind ? value : null;
    default:
      return null;
  }
}

/**
 * The arguments fitted to `inputs`. Throws AbiArgumentError with graph-node's wording: a value that
 * fits no parameter is a type mismatch (checked pairwise first), then a count that differs.
 */
export function fitCallArguments(inputs: readonly ParamType[], values: readonly EthereumValue[]): EthereumValue[] {
  const fitted: EthereumValue[] = [];
  for (let i = 0; i < Math.min(inputs.length, values.length); i++) {
    const value = fit(values[i]!, inputs[i]!);
    if (value === null) throw new AbiArgumentError(`type mismatch, decoded value ${describeValue(values[i]!)} is not of kind ${describeType(inputs[i]!)}`);
    fitted.push(value);
  }
  if (inputs.length !== values.length) {
    throw new AbiArgumentError(`error encoding input call data: unexpected number of values; expected ${inputs.length}, got ${values.length}`);
  }
  return fitted;
}
