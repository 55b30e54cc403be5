// Claim checks. Times follow golang-jwt v3 MapClaims.Valid: exp, iat, nbf in that order, the last failure's
// text wins, a claim that is absent or 0 is not checked, a non-number fails, values are truncated to
// whole seconds, and a token is still valid at exactly `exp`. Then the reference's audience rule, then
// the checks the reference does not make (issuer, required scopes, claim types for the typed result).
import {
  InsufficientScopeError,
  InvalidAudienceError,
  TokenExpiredError,
  TokenInvalidError,
  TokenNotValidYetError,
  TokenUsedBeforeIssuedError,
  type TokenParseError,
} from "../errors.js";
import type { JsonObject } from "./decodeToken.js";

/** The validated claims of a marketplace token. */
export type MarketplaceClaims = {
  /** Platform account that installed the application. */
  readonly sub?: string;
  /** Issuer: the platform's name. */
  readonly iss?: string;
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
  /** The application slug (checked). */
  readonly aud: string;
  /** Scopes such as `com.<app>.api.<tier>`; empty when the token has none. */
  readonly scope: readonly string[];
};

export type TimeCheckOptions = {
  /** Current time, UTC seconds. */
  readonly now: number;
  /** Allowed clock difference in seconds; 0 (the reference) by default. */
  readonly skew: number;
};

/** `true` when the claim passes `test` or is not checked; Go's rules for absent/zero/non-number. */
function timeClaimPasses(claims: JsonObject, name: string, test: (seconds: number) => boolean): boolean {
  if (!Object.hasOwn(claims, name)) return true;
  const value = claims[name];
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  const seconds = Math.trunc(value);
  return seconds === 0 || test(seconds);
}

/** The time failure golang-jwt would report, or undefined. */
export function checkTimes(claims: JsonObject, { now, skew }: TimeCheckOptions): TokenParseError | undefined {
  let failure: TokenParseError | undefined;
  if (!timeClaimPasses(claims, "exp", (exp) => now - skew <= exp)) {
    failure = new TokenExpiredError({ details: { exp: claims["exp"], now } });
  }
  if (!timeClaimPasses(claims, "iat", (iat) => now + skew >= iat)) {
    failure = new TokenUsedBeforeIssuedError({ details: { iat: claims["iat"], now } });
  }
  if (!timeClaimPasses(claims, "nbf", (nbf) => now + skew >= nbf)) {
    failure = new TokenNotValidYetError({ details: { nbf: claims["nbf"], now } });
  }
  return failure;
}

export type ClaimRules = {
  readonly audience: string;
  readonly issuer?: string | undefined;
  readonly requiredScopes: readonly string[];
};

function invalid(reason: string, details: Record<string, unknown> = {}): TokenInvalidError {
  return new TokenInvalidError({ details: { reason, ...details } });
}

function optionalString(claims: JsonObject, name: string): string | undefined {
  if (!Object.hasOwn(claims, name)) return undefined;
  const value = claims[name];
  if (typeof value !== "string") throw invalid(`claim ${name} is not a string`);
  return value;
}

function optionalNumber(claims: JsonObject, name: string): number | undefined {
  // checkTimes already rejected a present non-number.
  const value = claims[name];
  return typeof value === "number" ? value : undefined;
}

function readScopes(claims: JsonObject): string[] {
  if (!Object.hasOwn(claims, "scope")) return [];
  const value = claims["scope"];
  // OAuth's space-separated form is read too; the platform sends an array.
  if (typeof value === "string") return value.split(/\s+/).filter((s) => s !== "");
  if (Array.isArray(value) && value.every((s): s is string => typeof s === "string")) return [...value];
  throw invalid("claim scope is not a list of strings");
}

/** Audience (reference rule), then issuer, claim types and scopes; returns the typed claims. */
export function checkClaims(claims: JsonObject, rules: ClaimRules): MarketplaceClaims {
  const aud = claims["aud"];
  // A plain string equal to the slug; an array, a number or a missing aud is rejected.
  if (typeof aud !== "string" || aud !== rules.audience) {
    throw new InvalidAudienceError({ details: { expected: rules.audience } });
  }
  const sub = optionalString(claims, "sub");
  const iss = optionalString(claims, "iss");
  if (rules.issuer !== undefined && iss !== rules.issuer) {
    throw invalid("issuer mismatch", { expectedIssuer: rules.issuer });
  }
  const scope = readScopes(claims);
  const missingScopes = rules.requiredScopes.filter((s) => !scope.includes(s));
  if (missingScopes.length > 0) {
    throw new InsufficientScopeError({ details: { reason: "missing required scope", missingScopes } });
  }
  const exp = optionalNumber(claims, "exp");
  const nbf = optionalNumber(claims, "nbf");
  const iat = optionalNumber(claims, "iat");
  return {
    ...(sub === undefined ? {} : { sub }),
    ...(iss === undefined ? {} : { iss }),
    aud,
    scope,
    ...(exp === undefined ? {} : { exp }),
    ...(nbf === undefined ? {} : { nbf }),
    ...(iat === undefined ? {} : { iat }),
  };
}
