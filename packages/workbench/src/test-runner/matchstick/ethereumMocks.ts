// Mocked contract calls (`createMockedFunction(...).returns/reverts`, i.e. the `mockFunction` host
// function) and the `ethereum.call` that answers from them, with Matchstick's rules: the key is
// address + name + signature + each argument's ethabi Display; the name must match the signature;
// argument count and kinds are checked against the signature; an unmocked call is an error.
import type { EthereumValue } from "../../wasm-host/index.js";
import { CriticalAbort } from "../errors.js";
import { bytesHex } from "./values.js";

const U256 = 1n << 256n;

function hexOf(value: string | Uint8Array): string {
  return (typeof value === "string" ? value.replace(/^0x/i, "") : bytesHex(value).slice(2)).toLowerCase();
}

/** ethabi's `impl Display for Token` (ints as two's-complement U256 hex, addresses without 0x). */
export function tokenDisplay(token: EthereumValue): string {
  switch (token.kind) {
    case "bool":
      return token.value ? "true" : "false";
    case "string":
      return token.value;
    case "address":
    case "fixedBytes":
    case "bytes":
    case "function":
      return hexOf(token.value);
    case "int":
    case "uint":
      return (((token.value % U256) + U256) % U256).toString(16);
    case "array":
    case "fixedArray":
      return `[${token.value.map(tokenDisplay).join(",")}]`;
    case "tuple":
      return `(${token.value.map(tokenDisplay).join(",")})`;
  }
}

/** H160's Display (`0x1234…abcd`), which Matchstick uses for the address part of the key. */
export function addressDisplay(address: string): string {
  const hex = address.replace(/^0x/i, "").toLowerCase().padStart(40, "0");
  return `0x${hex.slice(0, 4)}…${hex.slice(-4)}`;
}

export function mockKey(address: string, name: string, signature: string, args: EthereumValue[]): string {
  return addressDisplay(address) + name + signature + args.map(tokenDisplay).join("");
}

/** A parsed ABI parameter type (ethabi ParamType). */
export type ParamType =
  | { kind: "address" | "bool" | "bytes" | "string" }
  | { kind: "int" | "uint" | "fixedBytes"; size: number }
  | { kind: "array"; inner: ParamType }
  | { kind: "fixedArray"; inner: ParamType; size: number }
  | { kind: "tuple"; components: ParamType[] };

/** Splits `a,(b,c),d` on top-level commas (Matchstick's collect_types). */
export function collectTypes(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Matchstick's get_kind, same regexes in the same order. */
export function parseParamType(raw: string): ParamType {
  const kind = raw.trim();
  if (kind === "address" || kind === "bool" || kind === "bytes" || kind === "string") return { kind };
  if (/^int\d+$/.test(kind)) return { kind: "int", size: Number(kind.slice(3)) };
  if (/^uint\d+$/.test(kind)) return { kind: "uint", size: Number(kind.slice(4)) };
  if (/\w*\d*\[\]$/.test(kind)) return { kind: "array", inner: parseParamType(kind.replace(/\[\]/g, "")) };
  if (/bytes\d+$/.test(kind)) return { kind: "fixedBytes", size: Number(kind.replace("bytes", "")) };
  if (/\w*\d*\[\d+\]$/.test(kind)) {
    const [inner, size] = kind.replace(/\]/g, "").split("[");
    return { kind: "fixedArray", inner: parseParamType(inner ?? ""), size: Number(size) };
  }
  if (/\((.+?)(?:,|$)*\)$/.test(kind)) return { kind: "tuple", components: collectTypes(kind.slice(1, -1)).map(parseParamType) };
  throw new CriticalAbort(`Unrecognized argument type \`${kind}\``);
}

/** ethabi's Token::type_check. */
export function typeCheck(token: EthereumValue, type: ParamType): boolean {
  switch (token.kind) {
    case "address":
    case "bool":
    case "bytes":
    case "string":
    case "int":
    case "uint":
      return token.kind === type.kind;
    case "fixedBytes":
      return type.kind === "fixedBytes" && type.size >= hexOf(token.value).length / 2;
    case "array":
      return type.kind === "array" && token.value.every((t) => typeCheck(t, type.inner));
    case "fixedArray":
      return type.kind === "fixedArray" && token.value.length === type.size && token.value.every((t) => typeCheck(t, type.inner));
    case "tuple":
      return type.kind === "tuple" && token.value.length === type.components.length && token.value.every((t, i) => typeCheck(t, type.components[i] as ParamType));
    case "function":
      return false;
  }
}

function describeToken(token: EthereumValue): string {
  return JSON.stringify(token, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? bytesHex(v) : v));
}

export interface MockFunctionInput {
  address: string;
  name: string;
  signature: string;
  args: EthereumValue[];
  returns: EthereumValue[];
  reverts: boolean;
}

export interface EthereumMocks {
  /** `mockFunction`; throws an Error (a failed host call, so a trap) when the mock is malformed. */
  mock(input: MockFunctionInput): void;
  /** The answer to `ethereum.call`: values, or null for a mocked revert; throws when not mocked. */
  call(address: string, name: string, signature: string, args: EthereumValue[]): EthereumValue[] | null;
  /** Number of mocks (for tests). */
  readonly size: number;
}

export function createEthereumMocks(): EthereumMocks {
  const mocks = new Map<string, EthereumValue[] | "revert">();
  return {
    mock({ address, name, signature, args, returns, reverts }) {
      const argText = signature.replace(`${name}(`, "").split("):")[0] ?? "";
      const argTypes = collectTypes(argText);
      if (name !== signature.split("(")[0]) {
        throw new Error(`createMockedFunction: function name \`${name}\` should match the name in the function signature \`${signature}\``);
      }
      if (argTypes.length !== args.length) {
        throw new Error(`${name} expected ${argTypes.length} arguments, but received ${args.length}`);
      }
      argTypes.forEach((raw, index) => {
        const type = parseParamType(raw);
        const arg = args[index] as EthereumValue;
        if (!typeCheck(arg, type)) {
          throw new Error(`createMockedFunction \`${name}\` parameters mismatch at position ${index + 1}:\nExpected: ${JSON.stringify(type)}\nRecieved: ${describeToken(arg)}\n`);
        }
      });
      mocks.set(mockKey(address, name, signature, args), reverts ? "revert" : returns);
    },
    call(address, name, signature, args) {
      const found = mocks.get(mockKey(address, name, signature, args));
      if (found === undefined) {
        throw new Error(
          `Could not find a mocked function with the following parameters, address: ${addressDisplay(address)}, name: ${name}, signature ${signature}, params: [${args.map(describeToken).join(", ")}].`,
        );
      }
      return found === "revert" ? null : found;
    },
    get size() {
      return mocks.size;
    },
  };
}
