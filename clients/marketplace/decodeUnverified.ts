// Reads a token's header and claims WITHOUT checking the signature (jose's decoders), for display only.
import { decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from "jose";
import { TokenMalformedError } from "./errors.js";

export type UnverifiedToken = {
  /** Always false: nothing here has been verified. */
  readonly verified: false;
  readonly header: ProtectedHeaderParameters;
  readonly claims: JWTPayload;
};

export function decodeUnverified(token: string): UnverifiedToken {
  try {
    return { verified: false, header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch (error) {
    throw new TokenMalformedError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
