import { getBytes, keccak256, toBeArray } from "ethers";
import { MappingKeyError } from "./errors.js";

/** A mapping key: 0x hex string, integer (number or bigint), or bytes. */
export type MappingKey = string | number | bigint | Uint8Array;

const MAX_UINT256 = (1n << 256n) - 1n;
const HEX = /^(0x)?[0-9a-fA-F]*$/;

function integerWord(value: bigint, what: string): Uint8Array {
  if (value < 0n || value > MAX_UINT256) throw new MappingKeyError(`${what} must be between 0 and 2^256 - 1`);
  const word = new Uint8Array(32);
  word.set(toBeArray(value), 32 - toBeArray(value).length);
  return word;
}

function keyWord(key: unknown): Uint8Array {
  let bytes: Uint8Array;
  if (typeof key === "string") {
    if (!HEX.test(key)) throw new MappingKeyError("Key must be hex string, integer, or bytes");
    const digits = key.startsWith("0x") ? key.slice(2) : key;
    if (digits.length % 2 !== 0) throw new MappingKeyError("Hex key must have an even number of digits");
    bytes = getBytes(`0x${digits}`);
  } else if (typeof key === "bigint" || (typeof key === "number" && Number.isSafeInteger(key))) {
    return integerWord(BigInt(key), "Integer key");
  } else if (key instanceof Uint8Array) {
    bytes = key;
  } else {
    throw new MappingKeyError("Key must be hex string, integer, or bytes");
  }
  if (bytes.length > 32) throw new MappingKeyError("Key must be at most 32 bytes");
  // Left-pad to 32 bytes, as Solidity lays out value-type keys.
  const word = new Uint8Array(32);
  word.set(bytes, 32 - bytes.length);
  return word;
}

/**
 * The storage slot of `mapping[key]` for a mapping declared at `slot`:
 * keccak256(pad32(key) ++ uint256(slot)), as 0x hex.
 */
export function mappingSlot(key: MappingKey, slot: number | bigint): string {
  if (typeof slot === "number" && !Number.isSafeInteger(slot)) throw new MappingKeyError("Mapping slot must be an integer");
  const data = new Uint8Array(64);
  data.set(keyWord(key), 0);
  data.set(integerWord(BigInt(slot), "Mapping slot"), 32);
  return keccak256(data);
}
