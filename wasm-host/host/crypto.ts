// crypto.keccak256.
import { keccak256 } from "ethers";
import type { HostEnv, HostFunctions } from "./env.js";
import { tryHexToBytes } from "../values/hex.js";

export function cryptoImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  return {
    "crypto.keccak256": (ptr: number) => codec.writeBytes(tryHexToBytes(keccak256(codec.readBytes(ptr)))!),
  };
}
