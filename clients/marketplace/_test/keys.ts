// Test keys and a raw signer: hostile tokens need byte-level control over header and claims.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";

export type TestKeys = {
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
  /** SPKI PEM with its usual newlines. */
  readonly publicPem: string;
  /** The same PEM on one line, as it is often stored in a .env file. */
  readonly oneLinePem: string;
};

export function generateTestKeys(): TestKeys {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { publicKey, privateKey, publicPem, oneLinePem: publicPem.replace(/\n/g, "") };
}

export function b64url(value: string | Uint8Array | object): string {
  if (typeof value === "string" || value instanceof Uint8Array) return Buffer.from(value).toString("base64url");
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export const EDDSA_HEADER = { alg: "EdDSA", typ: "JWT" } as const;

/** A compact JWS over exactly these header/claims (objects are JSON-encoded, strings used verbatim). */
export function signToken(privateKey: KeyObject, claims: object | string, header: object | string = EDDSA_HEADER): string {
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString("base64url")}`;
}

export type ReferenceClaimsOptions = {
  now: number;
  slug: string;
  sub?: string;
  iss?: string;
  scope?: string[];
};

/** Claims as the platform issues them: exp = iat + 3600, nbf = iat - 60. */
export function referenceClaims(options: ReferenceClaimsOptions): Record<string, unknown> {
  return {
    sub: options.sub ?? "account-7f3a",
    iss: options.iss ?? "platform",
    aud: options.slug,
    scope: options.scope ?? [`com.${options.slug}.api.Paid`],
    iat: options.now,
    nbf: options.now - 60,
    exp: options.now + 3600,
  };
}
