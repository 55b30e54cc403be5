// Tokens an attacker (or a broken issuer) could present. Every one must be refused, by both signature
// paths, with golang-jwt's reason where golang-jwt has one.
import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { b64url, generateTestKeys, referenceClaims, signToken } from "./_test/keys.js";
import { TokenValidationError } from "./errors.js";
import { createTokenValidator } from "./validateToken.js";

const SLUG = "my-app";
const NOW = 1_800_000_000;
const keys = generateTestKeys();
const attacker = generateKeyPairSync("ed25519");
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const claims = referenceClaims({ now: NOW, slug: SLUG });
const good = signToken(keys.privateKey, claims);
const [goodHeader = "", goodClaims = "", goodSignature = ""] = good.split(".");

function withHeader(header: object, signer: (input: string) => Buffer | string): string {
  const input = `${b64url(header)}.${b64url(claims)}`;
  const signature = signer(input);
  return `${input}.${typeof signature === "string" ? signature : signature.toString("base64url")}`;
}

const hmac = (secret: Buffer | string) => (input: string) => createHmac("sha256", secret).update(input).digest();
const signed = (c: object | string, header?: object | string) => signToken(keys.privateKey, c, header);
const parse = (reason: string) => `Failed to parse JWT token: ${reason}`;
const BAD_SIGNATURE = parse("ed25519: verification error");
const WRONG_ALG = parse("key is of invalid type");
const AUDIENCE = "Invalid Token: Invalid audience";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// 64 bytes take 86 characters; the last one carries 4 unused bits. Golang ignores them, we do not.
function setSpareBit(signature: string): string {
  const last = ALPHABET.indexOf(signature.charAt(signature.length - 1));
  return signature.slice(0, -1) + ALPHABET.charAt(last | 1);
}

// Flip a high bit of one character's value: a different, canonical signature.
function alterChar(text: string, index: number): string {
  const value = ALPHABET.indexOf(text.charAt(index));
  return text.slice(0, index) + ALPHABET.charAt(value ^ 0b100000) + text.slice(index + 1);
}

const oneMegabyte = signToken(attacker.privateKey, { ...claims, pad: "x".repeat(1024 * 1024) });

const HOSTILE: ReadonlyArray<readonly [name: string, token: string, message: string]> = [
  // Algorithm confusion
  ["alg none, empty signature", withHeader({ alg: "none", typ: "JWT" }, () => ""), parse("'none' signature type is not allowed")],
  ["alg none with a real-looking signature", withHeader({ alg: "none" }, () => goodSignature), parse("'none' signature type is not allowed")],
  ["HS256 signed with the public key PEM as secret", withHeader({ alg: "HS256", typ: "JWT" }, hmac(keys.publicPem)), WRONG_ALG],
  ["HS256 signed with the one-line PEM", withHeader({ alg: "HS256" }, hmac(keys.oneLinePem)), WRONG_ALG],
  ["HS256 signed with the raw SPKI bytes", withHeader({ alg: "HS256" }, hmac(keys.publicKey.export({ type: "spki", format: "der" }))), WRONG_ALG],
  ["HS512 with an empty secret", withHeader({ alg: "HS512" }, hmac("")), WRONG_ALG],
  ["RS256 signed with an RSA key", withHeader({ alg: "RS256", typ: "JWT" }, (i) => sign("sha256", Buffer.from(i), rsa.privateKey)), WRONG_ALG],
  ["PS256", withHeader({ alg: "PS256" }, (i) => sign("sha256", Buffer.from(i), rsa.privateKey)), WRONG_ALG],
  ["ES256 signed with a P-256 key", withHeader({ alg: "ES256" }, (i) => sign("sha256", Buffer.from(i), { key: ec.privateKey, dsaEncoding: "ieee-p1363" })), WRONG_ALG],
  ["alg missing", withHeader({ typ: "JWT" }, () => goodSignature), parse("signing method (alg) is unspecified.")],
  ["alg not a string", withHeader({ alg: ["EdDSA"] }, () => goodSignature), parse("signing method (alg) is unspecified.")],
  ["alg in the wrong case", withHeader({ alg: "eddsa" }, () => goodSignature), parse("signing method (alg) is unavailable.")],
  ["alg Ed25519 (not registered in golang-jwt v3)", withHeader({ alg: "Ed25519" }, (i) => sign(null, Buffer.from(i), keys.privateKey)), parse("signing method (alg) is unavailable.")],
  ["critical header extension", signed(claims, { alg: "EdDSA", crit: ["exp"], exp: 1 }), parse("critical header parameters are not supported")],
  ["b64:false detached-payload trick", signed(claims, { alg: "EdDSA", b64: false, crit: ["b64"] }), parse("critical header parameters are not supported")],
  // Key confusion
  ["signed with another Ed25519 key", signToken(attacker.privateKey, claims), BAD_SIGNATURE],
  ["attacker key embedded as jwk header", signToken(attacker.privateKey, claims, { alg: "EdDSA", jwk: attacker.publicKey.export({ format: "jwk" }) }), BAD_SIGNATURE],
  ["kid pointing at an attacker URL", signToken(attacker.privateKey, claims, { alg: "EdDSA", kid: "https://evil.test/key", jku: "https://evil.test/jwks" }), BAD_SIGNATURE],
  // Signature damage
  ["signature truncated to 63 bytes", `${goodHeader}.${goodClaims}.${goodSignature.slice(0, -2)}`, BAD_SIGNATURE],
  ["signature truncated to 32 bytes", `${goodHeader}.${goodClaims}.${Buffer.from(goodSignature, "base64url").subarray(0, 32).toString("base64url")}`, BAD_SIGNATURE],
  ["signature truncated by 1 character", `${goodHeader}.${goodClaims}.${goodSignature.slice(0, -1)}`, parse(`illegal base64 data at input byte ${goodSignature.length - 1}`)],
  ["signature empty", `${goodHeader}.${goodClaims}.`, BAD_SIGNATURE],
  ["signature with one character altered", `${goodHeader}.${goodClaims}.${alterChar(goodSignature, 40)}`, BAD_SIGNATURE],
  ["signature with unused low bits set (non-canonical base64url)", `${goodHeader}.${goodClaims}.${setSpareBit(goodSignature)}`, parse(`illegal base64 data at input byte ${goodSignature.length - 1}`)],
  ["signature doubled", `${good}${goodSignature}`, BAD_SIGNATURE],
  ["signature of another token", `${goodHeader}.${goodClaims}.${signToken(keys.privateKey, { ...claims, sub: "x" }).split(".")[2]}`, BAD_SIGNATURE],
  ["signature with + and / (standard base64)", `${goodHeader}.${goodClaims}.${Buffer.from(goodSignature, "base64url").toString("base64")}`, parse(`illegal base64 data at input byte ${Buffer.from(goodSignature, "base64url").toString("base64").search(/[+/=]/)}`)],
  // Claims damage (signature kept)
  ["claims altered: aud swapped", `${goodHeader}.${b64url({ ...claims, aud: "other" })}.${goodSignature}`, BAD_SIGNATURE],
  ["claims altered: exp extended", `${goodHeader}.${b64url({ ...claims, exp: NOW + 10 ** 8 })}.${goodSignature}`, BAD_SIGNATURE],
  ["claims re-encoded with different whitespace", `${goodHeader}.${b64url(JSON.stringify(claims, null, 1))}.${goodSignature}`, BAD_SIGNATURE],
  ["header altered: typ changed", `${b64url({ alg: "EdDSA", typ: "jwt" })}.${goodClaims}.${goodSignature}`, BAD_SIGNATURE],
  // Audience (properly signed)
  ["aud as an array containing the slug", signed({ ...claims, aud: [SLUG] }), AUDIENCE],
  ["aud missing", signed({ ...claims, aud: undefined }), AUDIENCE],
  ["aud a number", signed({ ...claims, aud: 42 }), AUDIENCE],
  ["aud an object", signed({ ...claims, aud: { aud: SLUG } }), AUDIENCE],
  ["aud null", signed({ ...claims, aud: null }), AUDIENCE],
  ["aud with different case", signed({ ...claims, aud: "My-App" }), AUDIENCE],
  ["aud with trailing space", signed({ ...claims, aud: `${SLUG} ` }), AUDIENCE],
  ["aud only via __proto__", signed(`{"__proto__":{"aud":"${SLUG}"},"exp":${NOW + 10}}`), AUDIENCE],
  ["claims null", signed("null"), AUDIENCE],
  // Time claims (properly signed)
  ["expired one second ago", signed({ ...claims, exp: NOW - 1 }), parse("Token is expired")],
  ["exp a numeric string", signed({ ...claims, exp: String(NOW + 3600) }), parse("Token is expired")],
  ["exp null", signed({ ...claims, exp: null }), parse("Token is expired")],
  ["exp a boolean", signed({ ...claims, exp: true }), parse("Token is expired")],
  ["exp negative", signed({ ...claims, exp: -1 }), parse("Token is expired")],
  ["exp overflowing to Infinity", signed(`{"aud":"${SLUG}","exp":1e400}`), parse("Token is expired")],
  ["nbf one second ahead", signed({ ...claims, iat: 0, nbf: NOW + 1 }), parse("Token is not valid yet")],
  ["nbf a string", signed({ ...claims, nbf: "0" }), parse("Token is not valid yet")],
  ["iat one second ahead", signed({ ...claims, nbf: 0, iat: NOW + 1 }), parse("Token used before issued")],
  ["iat an array", signed({ ...claims, iat: [NOW] }), parse("Token used before issued")],
  ["expired and not yet valid: last check wins", signed({ ...claims, exp: NOW - 1, iat: 0, nbf: NOW + 1 }), parse("Token is not valid yet")],
  // Structure
  ["empty string", "", parse("token contains an invalid number of segments")],
  ["two segments", `${goodHeader}.${goodClaims}`, parse("token contains an invalid number of segments")],
  ["four segments", `${good}.${goodSignature}`, parse("token contains an invalid number of segments")],
  ["five segments (JWE shape)", `${goodHeader}..${goodClaims}.${goodSignature}.AAAA`, parse("token contains an invalid number of segments")],
  ["malformed base64url in the header", `${goodHeader.slice(0, 5)}!${goodHeader.slice(6)}.${goodClaims}.${goodSignature}`, parse("illegal base64 data at input byte 5")],
  ["malformed base64url in the claims", `${goodHeader}.${goodClaims.slice(0, 9)}*${goodClaims.slice(10)}.${goodSignature}`, parse("illegal base64 data at input byte 9")],
  ["padding in a segment", `${goodHeader}=.${goodClaims}.${goodSignature}`, parse(`illegal base64 data at input byte ${goodHeader.length}`)],
  ["newline inside a segment", `${goodHeader.slice(0, 8)}\n${goodHeader.slice(8)}.${goodClaims}.${goodSignature}`, parse("illegal base64 data at input byte 8")],
  ["Bearer prefix left on", `Bearer ${good}`, parse("tokenstring should not contain 'bearer '")],
  ["header not JSON", `${b64url("{alg:EdDSA}")}.${goodClaims}.${goodSignature}`, parse("malformed JSON in the token header")],
  ["header a JSON array", `${b64url(["EdDSA"])}.${goodClaims}.${goodSignature}`, parse("json: cannot unmarshal array into Go value of type map[string]interface {}")],
  ["claims a JSON string", signed('"aud"'), parse("json: cannot unmarshal string into Go value of type jwt.MapClaims")],
  ["claims truncated JSON", signed(JSON.stringify(claims).slice(0, -1)), parse("malformed JSON in the token claims")],
  ["a 1 MB token", oneMegabyte, parse("token is longer than 8192 characters")],
  ["only dots", "..", parse("malformed JSON in the token header")],
  ["empty JSON objects", `${b64url({})}.${b64url({})}.`, parse("signing method (alg) is unspecified.")],
];

describe("hostile tokens", () => {
  const validator = createTokenValidator({ publicKey: keys.publicKey, audience: SLUG, now: () => NOW, signatureCacheSize: 0 });

  it("the untouched token is accepted (so the table tests real rejections)", async () => {
    expect(validator.validate(good).aud).toBe(SLUG);
    expect((await validator.validateAsync(good)).aud).toBe(SLUG);
  });

  it.each(HOSTILE)("rejects %s", async (_name, token, message) => {
    expect(token).not.toBe(good);
    let syncError: unknown;
    try {
      validator.validate(token);
    } catch (error) {
      syncError = error;
    }
    expect(syncError).toBeInstanceOf(TokenValidationError);
    expect((syncError as Error).message).toBe(message);
    await expect(validator.validateAsync(token)).rejects.toThrow(message);
  });

  it("rejects a forged 1 MB token by signature when the length limit is raised, without crashing", async () => {
    const roomy = createTokenValidator({ publicKey: keys.publicKey, audience: SLUG, now: () => NOW, maxTokenLength: 2 * 1024 * 1024 });
    expect(oneMegabyte.length).toBeGreaterThan(1024 * 1024);
    expect(() => roomy.validate(oneMegabyte)).toThrow(BAD_SIGNATURE);
    await expect(roomy.validateAsync(oneMegabyte)).rejects.toThrow(BAD_SIGNATURE);
  });

  it("rejects a non-string token", () => {
    expect(() => validator.validate(42 as unknown as string)).toThrow(parse("token is not a string"));
    expect(() => validator.validate(undefined as unknown as string)).toThrow(TokenValidationError);
  });
});
