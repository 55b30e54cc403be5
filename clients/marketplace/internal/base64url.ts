// Strict base64url for JWS segments. golang-jwt v3 decodes leniently (it ignores CR/LF and the unused low
// bits of the last character), so several strings decode to the same signature. Accepting only the
// canonical form means a token string is accepted only if it is exactly the one that was signed.

import { BaseError } from "subgraph-workbench/lib/errors";

const VALUE = new Int8Array(128).fill(-1);
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** Thrown with golang's base64 wording: `illegal base64 data at input byte N`. */
export class Base64UrlError extends BaseError {
  override name = "Base64UrlError";
  readonly offset: number;
  constructor(offset: number) {
    super(`illegal base64 data at input byte ${offset}`, { details: { offset } });
    this.offset = offset;
  }
}

/** Index of the first character that makes `segment` non-canonical base64url, or -1. */
export function findBase64UrlError(segment: string): number {
  const length = segment.length;
  for (let i = 0; i < length; i++) {
    const c = segment.charCodeAt(i);
    if (c >= 128 || VALUE[c] === -1) return i;
  }
  const rest = length % 4;
  // One leftover character cannot carry a whole byte; golang reports the first padding position.
  if (rest === 1) return length;
  if (rest > 1) {
    const last = VALUE[segment.charCodeAt(length - 1)] ?? 0;
    // 2 chars carry 8 bits (4 spare), 3 chars carry 16 bits (2 spare); spare bits must be zero.
    const spare = rest === 2 ? 0b1111 : 0b11;
    if ((last & spare) !== 0) return length - 1;
  }
  return -1;
}

export function decodeBase64Url(segment: string): Buffer {
  const bad = findBase64UrlError(segment);
  if (bad !== -1) throw new Base64UrlError(bad);
  return Buffer.from(segment, "base64url");
}

export function encodeBase64Url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString("base64url");
}
