import bs58 from "bs58";
import { InvalidPublicKeyError } from "./errors.js";

const PUBLIC_KEY_BYTES = 32;
// 32 bytes never need more than 44 base58 characters; longer input is refused before decoding.
const MAX_BASE58_LENGTH = 44;

/** Throws InvalidPublicKeyError unless `key` is base58 for exactly 32 bytes. */
export function assertPublicKey(key: unknown): asserts key is string {
  if (typeof key !== "string") throw new InvalidPublicKeyError(String(key), "a public key is a base58 string");
  if (key.length === 0 || key.length > MAX_BASE58_LENGTH) {
    throw new InvalidPublicKeyError(key, `a public key has 32 to 44 base58 characters, this one has ${key.length}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(key);
  } catch {
    throw new InvalidPublicKeyError(key, "not base58 (the alphabet has no 0, O, I or l)");
  }
  if (bytes.length !== PUBLIC_KEY_BYTES) {
    throw new InvalidPublicKeyError(key, `decodes to ${bytes.length} bytes, a public key has ${PUBLIC_KEY_BYTES}`);
  }
}
