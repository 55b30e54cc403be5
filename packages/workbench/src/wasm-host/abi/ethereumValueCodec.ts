// graph-ts `ethereum.Value` (call arguments and results, event parameters) in module memory.
import type { EthereumValue } from "../values/ethereumValue.js";
import type { AscHeap } from "./heap.js";
import type { PrimitiveCodec } from "./primitives.js";
import { nullCheck } from "./memoryChecks.js";
import { writeEnum } from "./enumObjects.js";
import { TypeId, EthereumValueKind } from "./typeIds.js";
import { HostError } from "../errors.js";
import { bytesToHex } from "../values/hex.js";

// graph-node converts a value the mapping passes into its ABI form (alloy's) as it reads it: bytes over
// 32 for a fixed-bytes value, an address of other than 20 bytes, an integer beyond 256 bits fail the
// handler deterministically, with its messages.
const INT256_LIMIT = 1n << 255n;
const UINT256_LIMIT = 1n << 256n;

export function createEthereumValueCodec(heap: AscHeap, p: PrimitiveCodec) {
  const { readString, writeString, readBytes, writeBytes, writeBytesHex, readBigInt, writeBigInt, readArray, writeArray } = p;

  const readEthereumValue = (ptr: number): EthereumValue => {
    nullCheck(ptr, "ethereum.Value");
    const dv = heap.views().dv;
    const kind = dv.getUint32(ptr, true);
    const payload = dv.getUint32(ptr + 8, true);
    switch (kind) {
      case EthereumValueKind.address: {
        const bytes = readBytes(payload);
        if (bytes.length !== 20) throw new HostError("CONVERSION", `expected array of length 20, found length ${bytes.length}`);
        return { kind: "address", value: bytesToHex(bytes) };
      }
      case EthereumValueKind.fixedBytes: {
        const bytes = readBytes(payload);
        if (bytes.length > 32) throw new HostError("CONVERSION", `input slice must contain a maximum of 32 bytes, got ${bytes.length}`);
        return { kind: "fixedBytes", value: bytes };
      }
      case EthereumValueKind.bytes:
        return { kind: "bytes", value: readBytes(payload) };
      case EthereumValueKind.int: {
        const value = readBigInt(payload);
        if (value >= INT256_LIMIT || value < -INT256_LIMIT) throw new HostError("CONVERSION", `BigInt value \`${value}\` does not fit into int256`);
        return { kind: "int", value };
      }
      case EthereumValueKind.uint: {
        const value = readBigInt(payload);
        if (value < 0n) throw new HostError("CONVERSION", `BigInt value is negative, cannot convert to unsigned U256: ${value}`);
        if (value >= UINT256_LIMIT) throw new HostError("CONVERSION", `BigInt value \`${value}\` does not fit into uint256`);
        return { kind: "uint", value };
      }
      case EthereumValueKind.bool:
        return { kind: "bool", value: dv.getBigUint64(ptr + 8, true) !== 0n };
      case EthereumValueKind.string:
        return { kind: "string", value: readString(payload) };
      case EthereumValueKind.fixedArray:
        return { kind: "fixedArray", value: readArray(payload, readEthereumValue) };
      case EthereumValueKind.array:
        return { kind: "array", value: readArray(payload, readEthereumValue) };
      case EthereumValueKind.tuple:
        return { kind: "tuple", value: readArray(payload, readEthereumValue) };
      case EthereumValueKind.function: {
        const bytes = readBytes(payload);
        if (bytes.length !== 24) throw new HostError("CONVERSION", `expected array of length 24, found length ${bytes.length}`);
        return { kind: "function", value: bytes };
      }
      default:
        throw new HostError("MEMORY", `invalid ethereum.Value kind ${kind}`);
    }
  };

  const writeEthereumValue = (value: EthereumValue): number => {
    const kind = EthereumValueKind[value.kind];
    switch (value.kind) {
      case "address":
      case "fixedBytes":
      case "bytes":
      case "function":
        // Hex strings go straight into memory, without an intermediate byte array.
        return writeEnum(heap, TypeId.EthereumValue, kind, typeof value.value === "string" ? writeBytesHex(value.value) : writeBytes(value.value));
      case "int":
      case "uint":
        return writeEnum(heap, TypeId.EthereumValue, kind, writeBigInt(value.value));
      case "bool":
        return writeEnum(heap, TypeId.EthereumValue, kind, value.value ? 1 : 0);
      case "string":
        return writeEnum(heap, TypeId.EthereumValue, kind, writeString(value.value));
      case "fixedArray":
      case "array":
      case "tuple":
        return writeEnum(heap, TypeId.EthereumValue, kind, writeArray(TypeId.ArrayEthereumValue, value.value, writeEthereumValue));
    }
  };

  return { readEthereumValue, writeEthereumValue };
}
