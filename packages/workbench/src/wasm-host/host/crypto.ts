// crypto.keccak256.
import { keccak_256 } from "@noble/hashes/sha3.js";
import type { HostEnv, HostFunctions } from "./env.js";

export function cryptoImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  return {
    "crypto.keccak256": (ptr: number) => codec.writeBytes(keccak_256(codec.readBytes(ptr))),
  };
}
