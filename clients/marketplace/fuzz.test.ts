// Random mutations of one valid token: none may be accepted, and every refusal must be a
// TokenValidationError (no TypeError, RangeError or crash). Seeded, so a failure reproduces.
import { describe, expect, it } from "vitest";
import { b64url, generateTestKeys, referenceClaims, signToken } from "./_test/keys.js";
import { TokenValidationError } from "./errors.js";
import { createTokenValidator } from "./validateToken.js";

const SLUG = "my-app";
const NOW = 1_800_000_000;
const MUTATIONS = 10_000;
// FUZZ_SEED=<n> explores other sequences; the default keeps CI reproducible.
const SEED = Number(process.env["FUZZ_SEED"] ?? 0x5eed_1234);

/** mulberry32: small, fast, deterministic. */
function createRandom(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const POOL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \n\u00e9\u0000\u{1F600}";

type Mutator = (token: string, random: (n: number) => number) => string;

function pick(random: (n: number) => number): string {
  return [...POOL][random([...POOL].length)] ?? "A";
}

function reencodeSegment(token: string, index: number, change: (bytes: Buffer) => void): string {
  const parts = token.split(".");
  const bytes = Buffer.from(parts[index] ?? "", "base64url");
  change(bytes);
  parts[index] = bytes.toString("base64url");
  return parts.join(".");
}

const MUTATORS: readonly Mutator[] = [
  (t, r) => {
    const i = r(t.length);
    return t.slice(0, i) + pick(r) + t.slice(i + 1);
  },
  (t, r) => {
    const i = r(t.length + 1);
    return t.slice(0, i) + pick(r) + t.slice(i);
  },
  (t, r) => {
    const i = r(t.length);
    return t.slice(0, i) + t.slice(i + 1);
  },
  (t, r) => {
    const i = r(t.length);
    return t.slice(0, i) + t.slice(i + 1 + r(20));
  },
  (t, r) => {
    const i = r(t.length);
    const j = i + r(30);
    return t.slice(0, j) + t.slice(i, j) + t.slice(j);
  },
  (t, r) => {
    const i = r(t.length);
    const j = r(t.length);
    const a = t.split("");
    [a[i], a[j]] = [a[j] ?? "", a[i] ?? ""];
    return a.join("");
  },
  (t, r) => t.slice(0, r(t.length)),
  // Flip one bit inside the decoded header, claims or signature and re-encode canonically.
  (t, r) =>
    reencodeSegment(t, r(3), (bytes) => {
      if (bytes.length === 0) return;
      const i = r(bytes.length);
      bytes[i] = (bytes[i] ?? 0) ^ (1 << r(8));
    }),
  (t, r) => {
    const parts = t.split(".");
    const i = r(3);
    const j = r(3);
    [parts[i], parts[j]] = [parts[j] ?? "", parts[i] ?? ""];
    return parts.join(".");
  },
  // Rewrite the claims to something an attacker wants, keeping the signature.
  (t, r) => {
    const parts = t.split(".");
    const wanted = [{ exp: NOW + 99_999 }, { aud: SLUG }, { scope: ["com.my-app.api.Admin"] }, { sub: "admin" }][r(4)];
    let claims: object = {};
    try {
      claims = JSON.parse(Buffer.from(parts[1] ?? "", "base64url").toString()) as object;
    } catch {
      // An earlier mutation broke the claims; write only the wanted ones.
    }
    parts[1] = b64url({ ...claims, ...wanted });
    return parts.join(".");
  },
];

describe("fuzzing", () => {
  it(`accepts none of ${MUTATIONS} random mutations of a valid token and never crashes`, async () => {
    const keys = generateTestKeys();
    const original = signToken(keys.privateKey, referenceClaims({ now: NOW, slug: SLUG }));
    const validator = createTokenValidator({ publicKey: keys.publicKey, audience: SLUG, now: () => NOW });
    expect(validator.validate(original).aud).toBe(SLUG);

    const random = createRandom(SEED);
    const seen = new Set<string>([original]);
    const codes = new Map<string, number>();
    let attempts = 0;
    while (seen.size <= MUTATIONS) {
      attempts++;
      let token = original;
      for (let n = 1 + random(3); n > 0; n--) token = MUTATORS[random(MUTATORS.length)]?.(token, random) ?? token;
      if (seen.has(token)) continue;
      seen.add(token);
      let accepted = false;
      let syncMessage = "";
      try {
        validator.validate(token);
        accepted = true;
      } catch (error) {
        if (!(error instanceof TokenValidationError)) throw new Error(`seed ${SEED}, attempt ${attempts}: crash on ${JSON.stringify(token)}`, { cause: error });
        codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
        syncMessage = error.message;
      }
      if (accepted) throw new Error(`seed ${SEED}, attempt ${attempts}: accepted mutated token ${JSON.stringify(token)}`);
      // Every 20th mutation also goes through jose and must be refused with the same message.
      if (seen.size % 20 === 0) {
        const message = await validator.validateAsync(token).then(
          () => "accepted",
          (error: unknown) => (error instanceof TokenValidationError ? error.message : `crash: ${String(error)}`),
        );
        expect(message, JSON.stringify(token)).toBe(syncMessage);
      }
    }
    expect(seen.size - 1).toBe(MUTATIONS);
    // The mutations reach the signature check as well as the parser.
    expect(codes.get("ERR_JWS_SIGNATURE_INVALID") ?? 0).toBeGreaterThan(1000);
    expect(codes.get("ERR_JWT_MALFORMED") ?? 0).toBeGreaterThan(1000);
    // The original is still fine afterwards.
    expect(validator.validate(original).aud).toBe(SLUG);
  });
});
