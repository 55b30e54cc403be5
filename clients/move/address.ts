// Account addresses and transaction hashes are checked and put in one canonical form before any request,
// so paths, comparisons and printed values agree with what the node returns.
import { InvalidAddressError, InvalidHashError } from "./errors.js";

export type MoveAddress = `0x${string}`;
export type TransactionHash = `0x${string}`;

const ADDRESS = /^(?:0x)?([0-9a-f]{1,64})$/i;
const HASH = /^(?:0x)?([0-9a-f]{64})$/i;

/** `0x` + 64 lowercase hex digits; short forms (`0x1`, `0xcafe`) are left-padded. Throws InvalidAddressError. */
export function normalizeAddress(input: string): MoveAddress {
  const match = ADDRESS.exec(input.trim());
  if (!match?.[1]) throw new InvalidAddressError(input);
  return `0x${match[1].toLowerCase().padStart(64, "0")}`;
}

export function isAddress(input: string): boolean {
  return ADDRESS.test(input.trim());
}

/** `0x` + exactly 64 lowercase hex digits. A hash is never padded: a short one is a typo. Throws InvalidHashError. */
export function normalizeHash(input: string): TransactionHash {
  const match = HASH.exec(input.trim());
  if (!match?.[1]) throw new InvalidHashError(input);
  return `0x${match[1].toLowerCase()}`;
}

/** Equality of two addresses in any accepted form. */
export function sameAddress(a: string, b: string): boolean {
  return isAddress(a) && isAddress(b) && normalizeAddress(a) === normalizeAddress(b);
}
