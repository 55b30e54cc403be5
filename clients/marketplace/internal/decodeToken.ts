// The parse stage of golang-jwt v3's Parser.ParseUnverified, with its error reasons: three segments,
// base64url header and claims holding JSON objects, and a known `alg`. Nothing here is verified yet.
import { TokenMalformedError, TokenUnverifiableError } from "../errors.js";
import { Base64UrlError, decodeBase64Url } from "./base64url.js";

export type JsonObject = Record<string, unknown>;

export type DecodedToken = {
  readonly header: JsonObject;
  readonly claims: JsonObject;
  readonly alg: string;
  /** `<header>.<claims>`, the bytes the signature covers. */
  readonly signingInput: string;
  readonly signatureSegment: string;
};

// golang-jwt v3's registered signing methods; any other alg is "unavailable".
const KNOWN_ALGS: ReadonlySet<string> = new Set([
  "EdDSA", "none",
  "HS256", "HS384", "HS512",
  "RS256", "RS384", "RS512",
  "PS256", "PS384", "PS512",
  "ES256", "ES384", "ES512",
]);

/** Above this a token is rejected before any decoding (the reference has no limit). */
export const DEFAULT_MAX_TOKEN_LENGTH = 8192;

// RFC 7515 requires UTF-8; Go would replace bad bytes, jose rejects them, and so do we.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

function decodeJsonObject(segment: string, part: "header" | "claims", goType: string): JsonObject {
  const bytes = decodeBase64Url(segment);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch (error) {
    throw new TokenMalformedError(`the token ${part} is not valid UTF-8`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TokenMalformedError(`malformed JSON in the token ${part}`, { cause: error });
  }
  // Go decodes `null` into an empty map; anything else that is not an object fails to unmarshal.
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TokenMalformedError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type ${goType}`);
  }
  return value as JsonObject;
}

function malformedFromBase64(error: unknown, token: string): never {
  if (error instanceof Base64UrlError) {
    if (token.slice(0, 7).toLowerCase() === "bearer ") {
      throw new TokenMalformedError("tokenstring should not contain 'bearer '");
    }
    throw new TokenMalformedError(error.message);
  }
  throw error;
}

/** Splits and decodes a compact JWT; throws TokenMalformedError / TokenUnverifiableError. */
export function decodeToken(token: unknown, maxLength: number = DEFAULT_MAX_TOKEN_LENGTH): DecodedToken {
  if (typeof token !== "string") throw new TokenMalformedError("token is not a string");
  if (token.length > maxLength) {
    throw new TokenMalformedError(`token is longer than ${maxLength} characters`, {
      details: { length: token.length, maxLength },
    });
  }
  const parts = token.split(".");
  if (parts.length !== 3) throw new TokenMalformedError("token contains an invalid number of segments");
  const [headerSegment = "", claimsSegment = "", signatureSegment = ""] = parts;

  let header: JsonObject;
  let claims: JsonObject;
  try {
    header = decodeJsonObject(headerSegment, "header", "map[string]interface {}");
    claims = decodeJsonObject(claimsSegment, "claims", "jwt.MapClaims");
  } catch (error) {
    malformedFromBase64(error, token);
  }

  const alg = header["alg"];
  if (typeof alg !== "string") throw new TokenUnverifiableError("signing method (alg) is unspecified.");
  if (!KNOWN_ALGS.has(alg)) throw new TokenUnverifiableError("signing method (alg) is unavailable.");
  // RFC 7515: a verifier must reject critical extensions it does not understand; this one knows none.
  if (header["crit"] !== undefined) {
    throw new TokenUnverifiableError("critical header parameters are not supported");
  }
  return { header, claims, alg, signingInput: `${headerSegment}.${claimsSegment}`, signatureSegment };
}
