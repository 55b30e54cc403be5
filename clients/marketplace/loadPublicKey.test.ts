import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateTestKeys } from "./_test/keys.js";
import { EnvFileError, PublicKeyNotSetError, PublicKeyParseError, PublicKeyPemError, PublicKeyTypeError } from "./errors.js";
import { loadPublicKey, parsePublicKeyPem } from "./loadPublicKey.js";
import { decodePem, normalizePem } from "./internal/pem.js";

const fixture = (name: string) => fileURLToPath(new URL(`./_test/${name}`, import.meta.url));
const FIXTURE_KEY_BASE64 = "MCowBQYDK2VwAyEA9r3xFfkASGyoQ0HTTxk+I2vb/yDux6Uh3fU9BQbJ6LY=";
const scratch = mkdtempSync(join(tmpdir(), "marketplace-key-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

function spkiBase64(key: ReturnType<typeof loadPublicKey>): string {
  return key.export({ type: "spki", format: "der" }).toString("base64");
}

describe("loadPublicKey", () => {
  it("reads a one-line PEM from a .env file (dotenv parser) and returns the Ed25519 key", () => {
    const key = loadPublicKey({ envFile: fixture("oneLine.env"), env: {} });
    expect(key.asymmetricKeyType).toBe("ed25519");
    expect(spkiBase64(key)).toBe(FIXTURE_KEY_BASE64);
  });

  it("reads quoted multi-line and \\n-escaped values to the same key", () => {
    for (const file of ["multiLine.env", "escapedNewlines.env"]) {
      expect(spkiBase64(loadPublicKey({ envFile: fixture(file), env: {} }))).toBe(FIXTURE_KEY_BASE64);
    }
  });

  it("prefers the environment over the file, as godotenv does, even when the variable is empty", () => {
    const { publicPem, publicKey } = generateTestKeys();
    const fromEnv = loadPublicKey({ envFile: fixture("oneLine.env"), env: { JWT_PUBLIC_KEY: publicPem } });
    expect(fromEnv.equals(publicKey)).toBe(true);
    expect(() => loadPublicKey({ envFile: fixture("oneLine.env"), env: { JWT_PUBLIC_KEY: "" } })).toThrow(
      "Environment variable for public key is not set",
    );
  });

  it("reads another variable name when asked", () => {
    const { publicPem } = generateTestKeys();
    expect(loadPublicKey({ envFile: false, env: { MY_KEY: publicPem }, variable: "MY_KEY" }).asymmetricKeyType).toBe("ed25519");
  });

  it("error table: error loading .env file: <reason> (missing file, directory)", () => {
    const missing = join(scratch, "absent.env");
    const error = thrown(() => loadPublicKey({ envFile: missing, env: {} }));
    expect(error).toBeInstanceOf(EnvFileError);
    expect(error).toMatchObject({
      message: `error loading .env file: open ${missing}: no such file or directory`,
      code: "ERR_ENV_FILE",
    });
    expect(() => loadPublicKey({ envFile: scratch, env: {} })).toThrow(`error loading .env file: read ${scratch}: is a directory`);
  });

  it("error table: Environment variable for public key is not set", () => {
    expect(() => loadPublicKey({ envFile: fixture("empty.env"), env: {} })).toThrow(PublicKeyNotSetError);
    expect(() => loadPublicKey({ envFile: false, env: {} })).toThrow("Environment variable for public key is not set");
  });

  it("error table: Failed to parse PEM block containing the public key", () => {
    expect(() => loadPublicKey({ envFile: fixture("noPem.env"), env: {} })).toThrow(PublicKeyPemError);
    expect(() => parsePublicKeyPem("-----BEGIN PUBLIC KEY-----\n%%%%\n-----END PUBLIC KEY-----")).toThrow(
      "Failed to parse PEM block containing the public key",
    );
    // END must repeat BEGIN's type.
    expect(() => parsePublicKeyPem(`-----BEGIN PUBLIC KEY-----\n${FIXTURE_KEY_BASE64}\n-----END PRIVATE KEY-----`)).toThrow(
      PublicKeyPemError,
    );
  });

  it("error table: Failed to parse public key: <reason>", () => {
    expect(() => loadPublicKey({ envFile: fixture("badDer.env"), env: {} })).toThrow(PublicKeyParseError);
    expect(() => loadPublicKey({ envFile: fixture("badDer.env"), env: {} })).toThrow(/^Failed to parse public key: x509: /);
  });

  it("error table: Failed to convert public key to Ed25519 public key (RSA, X25519)", () => {
    for (const file of ["rsa.env", "x25519.env"]) {
      expect(() => loadPublicKey({ envFile: fixture(file), env: {} })).toThrow(PublicKeyTypeError);
      expect(() => loadPublicKey({ envFile: fixture(file), env: {} })).toThrow(
        "Failed to convert public key to Ed25519 public key",
      );
    }
  });
});

describe("PEM normalisation and decoding", () => {
  it("inserts a newline after the header and before the footer of a one-line PEM", () => {
    expect(normalizePem(`-----BEGIN PUBLIC KEY-----${FIXTURE_KEY_BASE64}-----END PUBLIC KEY-----`)).toBe(
      `-----BEGIN PUBLIC KEY-----\n${FIXTURE_KEY_BASE64}\n-----END PUBLIC KEY-----`,
    );
  });

  it("leaves a multi-line PEM (LF or CRLF) as it is", () => {
    const lf = `-----BEGIN PUBLIC KEY-----\n${FIXTURE_KEY_BASE64}\n-----END PUBLIC KEY-----\n`;
    const crlf = lf.replace(/\n/g, "\r\n");
    expect(normalizePem(lf)).toBe(lf);
    expect(normalizePem(crlf)).toBe(crlf);
    expect(decodePem(crlf)?.bytes.toString("base64")).toBe(FIXTURE_KEY_BASE64);
  });

  it("skips text around the block and takes the first valid block", () => {
    const text = `garbage\n-----BEGIN PUBLIC KEY-----\n${FIXTURE_KEY_BASE64}\n-----END PUBLIC KEY-----\ntrailer`;
    expect(decodePem(text)).toEqual({ type: "PUBLIC KEY", bytes: Buffer.from(FIXTURE_KEY_BASE64, "base64") });
    expect(decodePem("no pem here")).toBeNull();
  });
});
