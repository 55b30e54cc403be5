// typeConversion.*: graph-node's host_exports.rs / context.rs conversions.
import bs58 from "bs58";
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import { bigintToBeBytes, bytesToHex, tryHexToBytes } from "../values/hex.js";

const lossyUtf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** `String::from_utf8_lossy` (U+FFFD per maximal invalid subsequence), then trailing NULs trimmed. */
export function bytesToString(bytes: Uint8Array): string {
  return lossyUtf8.decode(bytes).replace(/\u0000+$/, "");
}

/** graph-node's bigIntToHex: "0x0" for zero, else the magnitude's hex without leading zeros. */
export function bigIntToHex(n: bigint): string {
  if (n === 0n) return "0x0";
  const hex = bytesToHex(bigintToBeBytes(n < 0n ? -n : n)).slice(2);
  return "0x" + hex.replace(/^0+/, "");
}

/** alloy's `Address::from_str`: optional 0x, exactly 40 hex digits, any case. */
export function stringToAddress(s: string): Uint8Array {
  const body = s.startsWith("0x") || s.startsWith("0X") ? s.slice(2) : s;
  const bytes = body.length === 40 ? tryHexToBytes(body) : null;
  if (bytes === null) throw new HostError("CONVERSION", `Failed to convert string to Address: '${s}'`);
  return bytes;
}

export function typeConversionImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  return {
    "typeConversion.bytesToString": (ptr: number) => codec.writeString(bytesToString(codec.readBytes(ptr))),
    "typeConversion.bytesToHex": (ptr: number) => codec.writeBytesAsHex(ptr),
    "typeConversion.bigIntToString": (ptr: number) => codec.writeString(codec.readBigInt(ptr).toString()),
    "typeConversion.bigIntToHex": (ptr: number) => codec.writeString(bigIntToHex(codec.readBigInt(ptr))),
    "typeConversion.stringToH160": (ptr: number) => codec.writeBytes(stringToAddress(codec.readString(ptr))),
    "typeConversion.bytesToBase58": (ptr: number) => codec.writeString(bs58.encode(codec.readBytes(ptr))),
  };
}
