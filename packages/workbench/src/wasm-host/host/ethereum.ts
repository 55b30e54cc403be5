// ethereum.call / getBalance / hasCode / encode / decode. Encoding and decoding use ethers' AbiCoder.
import { AbiCoder, ParamType } from "ethers/abi";
import type { HostEnv, HostFunctions } from "./env.js";
import type { EthereumValue } from "../types.js";
import { HostError } from "../errors.js";
import { TypeId } from "../abi/typeIds.js";
import { readSmartContractCall } from "../abi/ethereumObjects.js";
import { bytesToHex, toBytes, tryHexToBytes } from "../values/hex.js";
import { toEthersValue } from "../values/ethereumValue.js";

const coder = AbiCoder.defaultAbiCoder();

/** The ABI type string of a value (ints as 256 bits, which encode the same for any fitting value). */
export function abiTypeOf(value: EthereumValue): string {
  switch (value.kind) {
    case "address":
      return "address";
    case "fixedBytes":
      // alloy encodes a fixed-bytes value as its whole 32-byte word, right-padded whatever its length.
      return "bytes32";
    case "bytes":
      return "bytes";
    case "int":
      return "int256";
    case "uint":
      return "uint256";
    case "bool":
      return "bool";
    case "string":
      return "string";
    case "function":
      return "bytes24";
    case "fixedArray":
      return `${value.value.length > 0 ? abiTypeOf(value.value[0]!) : "uint256"}[${value.value.length}]`;
    case "array":
      return `${value.value.length > 0 ? abiTypeOf(value.value[0]!) : "uint256"}[]`;
    case "tuple":
      return `(${value.value.map(abiTypeOf).join(",")})`;
  }
}

/** Fixed bytes right-padded to the 32-byte word alloy keeps them in (their length is at most 32, checked on read). */
function asWords(value: EthereumValue): EthereumValue {
  switch (value.kind) {
    case "fixedBytes": {
      const word = new Uint8Array(32);
      word.set(toBytes(value.value));
      return { kind: "fixedBytes", value: word };
    }
    case "fixedArray":
    case "array":
    case "tuple":
      return { kind: value.kind, value: value.value.map(asWords) };
    default:
      return value;
  }
}

/** abi.encode(value) — alloy's `DynSolValue::abi_encode`, a one-element sequence. */
export function ethereumEncode(value: EthereumValue): Uint8Array {
  return tryHexToBytes(coder.encode([abiTypeOf(value)], [toEthersValue(asWords(value))]))!;
}

function fromEthers(type: ParamType, v: unknown): EthereumValue {
  if (type.isTuple()) {
    const items = v as unknown[];
    return { kind: "tuple", value: type.components!.map((c, i) => fromEthers(c, items[i])) };
  }
  if (type.isArray()) {
    const items = (v as unknown[]).map((x) => fromEthers(type.arrayChildren!, x));
    return type.arrayLength === -1 ? { kind: "array", value: items } : { kind: "fixedArray", value: items };
  }
  const base = type.baseType;
  if (base === "address") return { kind: "address", value: (v as string).toLowerCase() };
  if (base === "bool") return { kind: "bool", value: v as boolean };
  if (base === "string") return { kind: "string", value: v as string };
  if (base === "bytes") return { kind: "bytes", value: tryHexToBytes(v as string)! };
  if (/^bytes\d+$/.test(base)) return { kind: "fixedBytes", value: tryHexToBytes(v as string)! };
  if (base.startsWith("uint")) return { kind: "uint", value: v as bigint };
  if (base.startsWith("int")) return { kind: "int", value: v as bigint };
  if (base === "function") return { kind: "function", value: tryHexToBytes(v as string)! };
  throw new Error(`unsupported ABI type ${base}`);
}

/** Decodes one value of `types` (e.g. "(address,uint256)"); null when it fails, as graph-node. */
export function ethereumDecode(types: string, data: Uint8Array): EthereumValue | null {
  try {
    const type = ParamType.from(types);
    const [decoded] = coder.decode([type], data);
    return fromEthers(type, decoded);
  } catch {
    return null;
  }
}

export function ethereumImports(env: HostEnv): HostFunctions {
  const { codec, options } = env;
  // graph-node links both for every mapping but refuses them, deterministically, before 0.0.9.
  const requireApiVersion9 = (name: string): void => {
    const patch = Number(/^0\.0\.(\d+)$/.exec(options.apiVersion)?.[1] ?? 0);
    if (patch < 9) throw new HostError("ETHEREUM", `${name} call is not supported before API version 0.0.9`);
  };
  return {
    "ethereum.call": (callPtr: number) => {
      const request = readSmartContractCall(codec, callPtr, env.block());
      if (options.ethereumCall === undefined) {
        throw new HostError("ETHEREUM", `ethereum.call is not available: cannot call ${request.contractName}.${request.functionSignature}`);
      }
      const result = options.ethereumCall(request);
      return result === null ? 0 : codec.writeArray(TypeId.ArrayEthereumValue, result, codec.writeEthereumValue);
    },
    "ethereum.getBalance": (addressPtr: number) => {
      requireApiVersion9("ethereum.getBalance");
      if (options.ethereumGetBalance === undefined) throw new HostError("ETHEREUM", "ethereum.getBalance is not available");
      return codec.writeBigInt(options.ethereumGetBalance(bytesToHex(codec.readBytes(addressPtr))));
    },
    "ethereum.hasCode": (addressPtr: number) => {
      requireApiVersion9("ethereum.hasCode");
      if (options.ethereumHasCode === undefined) throw new HostError("ETHEREUM", "ethereum.hasCode is not available");
      return codec.writeWrappedBool(options.ethereumHasCode(bytesToHex(codec.readBytes(addressPtr))));
    },
    "ethereum.encode": (valuePtr: number) => {
      // A value graph-node cannot convert fails the handler (read outside the try); an encoding ethers
      // refuses (an array of mixed kinds, which alloy would encode) still answers null.
      const value = codec.readEthereumValue(valuePtr);
      let encoded: Uint8Array;
      try {
        encoded = ethereumEncode(value);
      } catch {
        return 0;
      }
      return codec.writeBytes(encoded);
    },
    "ethereum.decode": (typesPtr: number, dataPtr: number) => {
      const value = ethereumDecode(codec.readString(typesPtr), codec.readBytes(dataPtr));
      return value === null ? 0 : codec.writeEthereumValue(value);
    },
    // Removed from graph-node; linked so old modules instantiate, failing when called.
    "arweave.transactionData": () => {
      throw new HostError("UNSUPPORTED", "`arweave.transactionData` has been removed.");
    },
    "box.profile": () => {
      throw new HostError("UNSUPPORTED", "`box.profile` has been removed.");
    },
  };
}
