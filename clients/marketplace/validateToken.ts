// Validates a marketplace JWT the way the platform's reference validator (golang-jwt v3) does, with the
// reference's error messages. Only EdDSA over the configured Ed25519 key is accepted.
//
// Two signature paths share the parsing and claim checks:
// - `validate` (synchronous): node:crypto's Ed25519 verify with the KeyObject parsed once. Verified
//   signatures are remembered per exact token string, so a client's repeated requests with the same
//   token skip the expensive curve operation; the times, audience, issuer and scopes are still checked on
//   every call.
// - `validateAsync` / `validateToken`: jose's compactVerify (algorithms: ["EdDSA"]), its errors mapped
//   to the reference messages.
import { verify as verifySignature, type KeyObject } from "node:crypto";
import { compactVerify } from "jose";
import {
  TokenMalformedError,
  TokenParseError,
  TokenSignatureError,
  TokenUnverifiableError,
  TokenValidationError,
} from "./errors.js";
import { Base64UrlError, decodeBase64Url } from "./internal/base64url.js";
import { checkClaims, checkTimes, type MarketplaceClaims } from "./internal/checkClaims.js";
import { decodeToken, DEFAULT_MAX_TOKEN_LENGTH, type DecodedToken, type JsonObject } from "./internal/decodeToken.js";
import { parsePublicKeyPem } from "./loadPublicKey.js";

export type { MarketplaceClaims } from "./internal/checkClaims.js";

export type TokenValidatorOptions = {
  /** The platform's Ed25519 public key: a KeyObject from loadPublicKey, or PEM text. */
  publicKey: KeyObject | string;
  /** The application's slug; `aud` must be exactly this string. */
  audience: string;
  /** When set, `iss` must equal it. */
  issuer?: string;
  /** Scopes that must all appear in `scope`. */
  requiredScopes?: readonly string[];
  /** Allowed clock difference in seconds for exp/nbf/iat; 0 (the reference's behaviour) by default. */
  clockSkewSeconds?: number;
  /** Current time in UTC seconds; default the system clock. */
  now?: () => number;
  /** Longer tokens are rejected before decoding; default 8192 characters. */
  maxTokenLength?: number;
  /** How many verified signatures `validate` remembers; default 1024, 0 turns it off. */
  signatureCacheSize?: number;
};

export type TokenValidator = {
  readonly audience: string;
  /** Synchronous validation; throws a TokenValidationError with the reference message. */
  validate(token: string): MarketplaceClaims;
  /** The same checks with jose's compactVerify for the signature. */
  validateAsync(token: string): Promise<MarketplaceClaims>;
};

const ED25519_VERIFICATION_ERROR = "ed25519: verification error";

/** golang-jwt's answer for an alg other than EdDSA when handed an Ed25519 key. */
function algorithmError(alg: string): TokenSignatureError | undefined {
  if (alg === "none") return new TokenSignatureError("'none' signature type is not allowed");
  if (alg !== "EdDSA") return new TokenSignatureError("key is of invalid type", { details: { alg } });
  return undefined;
}

function decodeSignature(segment: string): Buffer {
  try {
    return decodeBase64Url(segment);
  } catch (error) {
    if (error instanceof Base64UrlError) throw new TokenSignatureError(error.message);
    throw error;
  }
}

/** Maps jose's errors to golang-jwt's reasons. */
function fromJoseError(error: unknown): TokenParseError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new TokenSignatureError(ED25519_VERIFICATION_ERROR, { cause: error });
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return new TokenSignatureError("key is of invalid type", { cause: error });
    case "ERR_JOSE_NOT_SUPPORTED":
      return new TokenUnverifiableError(message, { cause: error });
    case "ERR_JWS_INVALID":
      return new TokenMalformedError(message, { cause: error });
    default:
      return new TokenSignatureError(message, { cause: error });
  }
}

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function createTokenValidator(options: TokenValidatorOptions): TokenValidator {
  const key = typeof options.publicKey === "string" ? parsePublicKeyPem(options.publicKey) : options.publicKey;
  if (key.type !== "public" || key.asymmetricKeyType !== "ed25519") {
    throw new TypeError("createTokenValidator: publicKey must be an Ed25519 public key");
  }
  if (typeof options.audience !== "string" || options.audience === "") {
    throw new TypeError("createTokenValidator: audience must be a non-empty string");
  }
  const skew = options.clockSkewSeconds ?? 0;
  if (!Number.isFinite(skew) || skew < 0) throw new TypeError("createTokenValidator: clockSkewSeconds must be >= 0");
  const now = options.now ?? nowInSeconds;
  const maxLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
  const cacheSize = options.signatureCacheSize ?? 1024;
  const rules = { audience: options.audience, issuer: options.issuer, requiredScopes: options.requiredScopes ?? [] };
  // Token string -> its decoded claims, for tokens whose signature verified. Map order gives LRU.
  const verified = new Map<string, JsonObject>();

  function remember(token: string, claims: JsonObject): void {
    if (cacheSize <= 0) return;
    if (verified.size >= cacheSize) {
      const oldest = verified.keys().next();
      if (!oldest.done) verified.delete(oldest.value);
    }
    verified.set(token, claims);
  }

  function verifySync(decoded: DecodedToken): void {
    const algError = algorithmError(decoded.alg);
    if (algError) throw algError;
    const signature = decodeSignature(decoded.signatureSegment);
    if (!verifySignature(null, Buffer.from(decoded.signingInput, "latin1"), key, signature)) {
      throw new TokenSignatureError(ED25519_VERIFICATION_ERROR);
    }
  }

  // golang-jwt checks the times before the signature but a signature failure replaces their text, so
  // verifying first gives the same answer and skips the time checks on forged tokens.
  function finish(claims: JsonObject): MarketplaceClaims {
    const timeError = checkTimes(claims, { now: now(), skew });
    if (timeError) throw timeError;
    return checkClaims(claims, rules);
  }

  function validate(token: string): MarketplaceClaims {
    const cached = typeof token === "string" ? verified.get(token) : undefined;
    if (cached !== undefined) {
      verified.delete(token);
      verified.set(token, cached);
      return finish(cached);
    }
    const decoded = decodeToken(token, maxLength);
    verifySync(decoded);
    remember(token, decoded.claims);
    return finish(decoded.claims);
  }

  async function validateAsync(token: string): Promise<MarketplaceClaims> {
    const decoded = decodeToken(token, maxLength);
    const algError = algorithmError(decoded.alg);
    if (algError) throw algError;
    // Same strict base64url rule as the sync path; jose alone would accept non-canonical spare bits.
    decodeSignature(decoded.signatureSegment);
    try {
      await compactVerify(token, key, { algorithms: ["EdDSA"] });
    } catch (error) {
      throw fromJoseError(error);
    }
    return finish(decoded.claims);
  }

  return { audience: options.audience, validate, validateAsync };
}

/** One-shot validation through jose; for many tokens create a validator once and reuse it. */
export async function validateToken(token: string, options: TokenValidatorOptions): Promise<MarketplaceClaims> {
  return createTokenValidator({ ...options, signatureCacheSize: 0 }).validateAsync(token);
}

/** Narrowing helper for callers handling unknown errors. */
export function isTokenValidationError(error: unknown): error is TokenValidationError {
  return error instanceof TokenValidationError;
}
