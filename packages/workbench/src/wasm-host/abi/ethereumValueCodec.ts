// graph-ts `ethereum.Value` (call arguments and results, event parameters) in module memory.
import type { EthereumValue } from "../values/ethereumValue.js";
import type { AscHeap } from "./heap.js";
import type { PrimitiveCodec } from "./primitives.js";
import { nullCheck } from "./memoryChecks.js";
import { writeEnum } from "./enumObjects.js";
import { TypeId, EthereumValueKind } from "./typeIds.js";
import { HostError } from "../errors.js";
import { bytesToHex } from "../values/hex.js";

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
        if (bytes.length !== 20) throw new HostError("CONVERSION", `ethereum address must be 20 bytes, got ${bytes.length}`);
        return { kind: "address", value: bytesToHex(bytes) };
      }
      case EthereumValueKind.fixedBytes:
        return { kind: "fixedBytes", value: readBytes(payload) };
      case EthereumValueKind.bytes:
        return { kind: "bytes", value: readBytes(payload) };
      case EthereumValueKind.int:
        return { kind: "int", value: readBigInt(payload) };
      case EthereumValueKind.uint:
        return { kind: "uint", value: readBigInt(payload) };
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
      case EthereumValueKind.function:
        return { kind: "function", value: readBytes(payload) };
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
