import { generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { generateTestKeys, referenceClaims, signToken } from "./_test/keys.js";
import {
  InsufficientScopeError,
  InvalidAudienceError,
  TokenExpiredError,
  TokenInvalidError,
  TokenNotValidYetError,
  TokenParseError,
  TokenSignatureError,
  TokenUsedBeforeIssuedError,
  TokenValidationError,
} from "./errors.js";
import { createTokenValidator, validateToken, type TokenValidatorOptions } from "./validateToken.js";

const SLUG = "my-app";
const NOW = 1_800_000_000;
const keys = generateTestKeys();

function validator(overrides: Partial<TokenValidatorOptions> = {}, now = NOW) {
  return createTokenValidator({ publicKey: keys.publicKey, audience: SLUG, now: () => now, ...overrides });
}

function token(claims: Record<string, unknown> = {}, remove: string[] = []): string {
  const all: Record<string, unknown> = { ...referenceClaims({ now: NOW, slug: SLUG }), ...claims };
  for (const name of remove) delete all[name];
  return signToken(keys.privateKey, all);
}

/** The error both paths (sync node:crypto, async jose) throw; they must agree. */
async function rejection(jwt: string, options: Partial<TokenValidatorOptions> = {}, now = NOW): Promise<TokenValidationError> {
  const v = validator(options, now);
  let syncError: unknown;
  try {
    v.validate(jwt);
  } catch (error) {
    syncError = error;
  }
  const asyncError: unknown = await v.validateAsync(jwt).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(syncError, "sync path accepted the token").toBeInstanceOf(TokenValidationError);
  expect(asyncError, "async path accepted the token").toBeInstanceOf(TokenValidationError);
  expect((asyncError as Error).message).toBe((syncError as Error).message);
  expect((asyncError as TokenValidationError).code).toBe((syncError as TokenValidationError).code);
  return syncError as TokenValidationError;
}

describe("createTokenValidator: accepted tokens", () => {
  it("returns typed claims for a token issued as the reference does, on both paths", async () => {
    const jwt = token();
    const expected = {
      sub: "account-7f3a",
      iss: "platform",
      aud: SLUG,
      scope: [`com.${SLUG}.api.Paid`],
      iat: NOW,
      nbf: NOW - 60,
      exp: NOW + 3600,
    };
    expect(validator().validate(jwt)).toEqual(expected);
    expect(await validator().validateAsync(jwt)).toEqual(expected);
    expect(await validateToken(jwt, { publicKey: keys.publicPem, audience: SLUG, now: () => NOW })).toEqual(expected);
  });

  it("accepts a token signed by jose's SignJWT (interop)", () => {
    return new SignJWT({ scope: ["a.b.api.Free"] })
      .setProtectedHeader({ alg: "EdDSA" })
      .setAudience(SLUG)
      .setExpirationTime(NOW + 10)
      .sign(keys.privateKey)
      .then((jwt) => expect(validator().validate(jwt)).toEqual({ aud: SLUG, exp: NOW + 10, scope: ["a.b.api.Free"] }));
  });

  it("takes the key as one-line PEM text too", () => {
    expect(createTokenValidator({ publicKey: keys.oneLinePem, audience: SLUG, now: () => NOW }).validate(token()).aud).toBe(SLUG);
  });

  it("reads a missing scope as [] and an OAuth space-separated scope string as a list", () => {
    expect(validator().validate(token({}, ["scope"])).scope).toEqual([]);
    expect(validator().validate(token({ scope: "a.b.api.Paid  c.d.api.Free" })).scope).toEqual(["a.b.api.Paid", "c.d.api.Free"]);
  });

  it("leaves absent and zero time claims unchecked, as golang-jwt v3 does", () => {
    expect(validator().validate(token({}, ["exp", "nbf", "iat"]))).toEqual({ sub: "account-7f3a", iss: "platform", aud: SLUG, scope: [`com.${SLUG}.api.Paid`] });
    expect(validator().validate(token({ exp: 0, nbf: 0, iat: 0 })).exp).toBe(0);
  });
});

describe("time edges (golang-jwt v3: no leeway, valid at exactly exp)", () => {
  const exp = NOW + 3600;

  it("is valid at exactly exp and expired one second later", async () => {
    expect(validator({}, exp).validate(token()).exp).toBe(exp);
    const error = await rejection(token(), {}, exp + 1);
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe("Failed to parse JWT token: Token is expired");
  });

  it("truncates fractional seconds like Go's int64 conversion", async () => {
    const jwt = token({ exp: NOW + 0.9 });
    expect(validator({}, NOW).validate(jwt).exp).toBe(NOW + 0.9);
    expect((await rejection(jwt, {}, NOW + 1)).message).toBe("Failed to parse JWT token: Token is expired");
  });

  it("is valid from exactly nbf, not a second before", async () => {
    // iat left out: with it, any time before iat already fails the iat check.
    const jwt = token({}, ["iat"]);
    expect(validator({}, NOW - 60).validate(jwt).nbf).toBe(NOW - 60);
    const error = await rejection(jwt, {}, NOW - 61);
    expect(error).toBeInstanceOf(TokenNotValidYetError);
    expect(error.message).toBe("Failed to parse JWT token: Token is not valid yet");
  });

  it("rejects a token issued in the future (iat)", async () => {
    const jwt = token({ nbf: 0, iat: NOW + 1 });
    const error = await rejection(jwt);
    expect(error).toBeInstanceOf(TokenUsedBeforeIssuedError);
    expect(error.message).toBe("Failed to parse JWT token: Token used before issued");
    expect(validator({}, NOW + 1).validate(jwt).iat).toBe(NOW + 1);
  });

  it("reports the last failing check: exp, then iat, then nbf", async () => {
    expect((await rejection(token({ exp: NOW - 1, iat: NOW + 5 }))).message).toBe("Failed to parse JWT token: Token used before issued");
    expect((await rejection(token({ exp: NOW - 1, iat: NOW + 5, nbf: NOW + 5 }))).message).toBe("Failed to parse JWT token: Token is not valid yet");
    expect((await rejection(token({ exp: NOW - 1, nbf: NOW + 5 }))).message).toBe("Failed to parse JWT token: Token is not valid yet");
  });

  it("applies the optional clock skew to exp, nbf and iat, and is off by default", async () => {
    const skewed = { clockSkewSeconds: 30 };
    expect(validator(skewed, exp + 30).validate(token()).exp).toBe(exp);
    expect((await rejection(token(), skewed, exp + 31)).message).toBe("Failed to parse JWT token: Token is expired");
    expect(validator(skewed, NOW - 90).validate(token({}, ["iat"])).nbf).toBe(NOW - 60);
    expect((await rejection(token({}, ["iat"]), skewed, NOW - 91)).message).toBe("Failed to parse JWT token: Token is not valid yet");
    expect(validator(skewed).validate(token({ iat: NOW + 30, nbf: 0 })).iat).toBe(NOW + 30);
    expect(() => validator({ clockSkewSeconds: -1 })).toThrow(TypeError);
  });
});

describe("reference error table: token rows", () => {
  it("Failed to parse JWT token: <reason> (signature)", async () => {
    const other = generateKeyPairSync("ed25519").privateKey;
    const error = await rejection(signToken(other, referenceClaims({ now: NOW, slug: SLUG })));
    expect(error).toBeInstanceOf(TokenSignatureError);
    expect(error).toBeInstanceOf(TokenParseError);
    expect(error.message).toBe("Failed to parse JWT token: ed25519: verification error");
    expect(error.code).toBe("ERR_JWS_SIGNATURE_INVALID");
  });

  it("a signature failure wins over a time failure, as in golang-jwt", async () => {
    const other = generateKeyPairSync("ed25519").privateKey;
    const expiredForgery = signToken(other, referenceClaims({ now: NOW - 10_000, slug: SLUG }));
    expect((await rejection(expiredForgery)).message).toBe("Failed to parse JWT token: ed25519: verification error");
  });

  it("Invalid Token: Invalid audience", async () => {
    const error = await rejection(token({ aud: "other-app" }));
    expect(error).toBeInstanceOf(InvalidAudienceError);
    expect(error.message).toBe("Invalid Token: Invalid audience");
    expect(error.code).toBe("ERR_JWT_AUDIENCE");
  });

  it("Invalid Token: Token is not valid (issuer, claim types, scopes)", async () => {
    const issuer = await rejection(token({ iss: "someone-else" }), { issuer: "platform" });
    expect(issuer).toBeInstanceOf(TokenInvalidError);
    expect(issuer.message).toBe("Invalid Token: Token is not valid");
    expect(issuer.details).toMatchObject({ reason: "issuer mismatch" });
    expect(validator({ issuer: "platform" }).validate(token()).iss).toBe("platform");

    const sub = await rejection(token({ sub: 42 }));
    expect(sub.message).toBe("Invalid Token: Token is not valid");
    expect(sub.details).toMatchObject({ reason: "claim sub is not a string" });
    expect((await rejection(token({ scope: [1, 2] }))).details).toMatchObject({ reason: "claim scope is not a list of strings" });

    const scope = await rejection(token(), { requiredScopes: [`com.${SLUG}.api.Paid`, "com.x.api.Admin"] });
    expect(scope).toBeInstanceOf(InsufficientScopeError);
    expect(scope.message).toBe("Invalid Token: Token is not valid");
    expect(scope.code).toBe("ERR_JWT_SCOPE");
    expect(scope.details).toMatchObject({ missingScopes: ["com.x.api.Admin"] });
    expect(validator({ requiredScopes: [`com.${SLUG}.api.Paid`] }).validate(token()).scope).toContain(`com.${SLUG}.api.Paid`);
  });
});

describe("validator set-up and the verified-signature memory", () => {
  it("refuses keys that are not Ed25519 public keys and an empty audience", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey;
    expect(() => createTokenValidator({ publicKey: rsa, audience: SLUG })).toThrow(TypeError);
    expect(() => createTokenValidator({ publicKey: keys.privateKey, audience: SLUG })).toThrow(TypeError);
    expect(() => createTokenValidator({ publicKey: keys.publicKey, audience: "" })).toThrow(TypeError);
    expect(() => createTokenValidator({ publicKey: "not a pem", audience: SLUG })).toThrow(
      "Failed to parse PEM block containing the public key",
    );
  });

  it("re-checks times and audience on a remembered token", () => {
    let now = NOW;
    const v = createTokenValidator({ publicKey: keys.publicKey, audience: SLUG, now: () => now });
    const jwt = token();
    expect(v.validate(jwt).aud).toBe(SLUG);
    expect(v.validate(jwt).aud).toBe(SLUG);
    now = NOW + 3601;
    expect(() => v.validate(jwt)).toThrow("Failed to parse JWT token: Token is expired");
    now = NOW;
    expect(v.validate(jwt).aud).toBe(SLUG);
  });

  it("stays correct when more tokens pass than it remembers", () => {
    const v = validator({ signatureCacheSize: 2 });
    const tokens = [1, 2, 3, 4].map((i) => token({ sub: `account-${i}` }));
    for (let round = 0; round < 2; round++) {
      tokens.forEach((jwt, i) => expect(v.validate(jwt).sub).toBe(`account-${i + 1}`));
    }
    const forged = `${tokens[0]?.slice(0, -4)}AAAA`;
    expect(() => v.validate(forged)).toThrow(TokenSignatureError);
  });

  it("returns a fresh claims object each time (callers cannot corrupt the memory)", () => {
    const v = validator();
    const jwt = token();
    const first = v.validate(jwt);
    (first.scope as string[]).push("injected");
    expect(v.validate(jwt).scope).toEqual([`com.${SLUG}.api.Paid`]);
  });
});
