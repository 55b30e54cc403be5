// Ethereum ABI values as plain JS: the bottom layer, shared by the memory codec and the host functions.
import { getAddress } from "ethers/address";
import { bytesToHex, toBytes } from "./hex.js";

/**
 * A value of the ethereum ABI as plain JS, mirroring graph-ts's `ethereum.Value` kinds.
 * Input accepts 0x hex strings or bytes for byte-like kinds; the host always PRODUCES
 * lowercase 0x hex for `address` and `Uint8Array` for `fixedBytes`/`bytes`/`function`.
 */
export type EthereumValue =
  | { kind: "address"; value: string | Uint8Array }
  | { kind: "fixedBytes"; value: string | Uint8Array }
  | { kind: "bytes"; value: string | Uint8Array }
  | { kind: "int"; value: bigint }
  | { kind: "uint"; value: bigint }
  | { kind: "bool"; value: boolean }
  | { kind: "string"; value: string }
  | { kind: "fixedArray"; value: EthereumValue[] }
  | { kind: "array"; value: EthereumValue[] }
  | { kind: "tuple"; value: EthereumValue[] }
  /** 24 bytes: address + selector (graph-ts has no constructor for it; kept for decode). */
  | { kind: "function"; value: string | Uint8Array };

/** Hex strings (0x...) or raw bytes. */
export type BytesLike = string | Uint8Array;
/** Numbers that end up as graph-ts BigInt. */
export type BigIntLike = bigint | number;

/** The value as ethers' ABI coder takes it: checksummed addresses, bytes as Uint8Array, nested arrays. */
export function toEthersValue(value: EthereumValue): unknown {
  switch (value.kind) {
    case "address":
      return getAddress(typeof value.value === "string" ? value.value : bytesToHex(value.value));
    case "fixedBytes":
    case "bytes":
    case "function":
      return toBytes(value.value);
    case "fixedArray":
    case "array":
    case "tuple":
      return value.value.map(toEthersValue);
    default:
      return value.value;
  }
}
