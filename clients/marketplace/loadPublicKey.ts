// Loads the platform's Ed25519 public key once: JWT_PUBLIC_KEY from the environment or a .env file,
// one-line PEM normalised, PEM decoded, parsed as SPKI, and required to be Ed25519.
import { createPublicKey, type KeyObject } from "node:crypto";
import { PublicKeyNotSetError, PublicKeyParseError, PublicKeyPemError, PublicKeyTypeError } from "./errors.js";
import { mergeEnv, readEnvFile } from "./internal/envFile.js";
import { decodePem, normalizePem } from "./internal/pem.js";

export const PUBLIC_KEY_VARIABLE = "JWT_PUBLIC_KEY";

export type LoadPublicKeyParameters = {
  /** Variables to read; default `process.env`. They win over the .env file's values. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A .env file to load. Given explicitly, a missing file is `error loading .env file: ...`.
   * Default: `.env` in the working directory when it exists. `false` reads no file.
   */
  envFile?: string | false;
  /** Variable name; default `JWT_PUBLIC_KEY`. */
  variable?: string;
};

/** Parses a PEM (one-line or multi-line) into an Ed25519 public KeyObject, with the reference's errors. */
export function parsePublicKeyPem(pem: string): KeyObject {
  if (pem === "") throw new PublicKeyNotSetError();
  const block = decodePem(normalizePem(pem));
  if (block === null) throw new PublicKeyPemError();
  let key: KeyObject;
  try {
    key = createPublicKey({ key: block.bytes, format: "der", type: "spki" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PublicKeyParseError(`x509: malformed SubjectPublicKeyInfo (${reason})`, {
      cause: error,
      details: { pemType: block.type },
    });
  }
  if (key.asymmetricKeyType !== "ed25519") {
    throw new PublicKeyTypeError({ details: { keyType: key.asymmetricKeyType ?? key.type } });
  }
  return key;
}

/** Reads the PEM from the environment (or .env file) and parses it; call once and reuse the key. */
export function loadPublicKey(parameters: LoadPublicKeyParameters = {}): KeyObject {
  const variable = parameters.variable ?? PUBLIC_KEY_VARIABLE;
  const envFile = parameters.envFile;
  const fileValues =
    envFile === false ? {} : readEnvFile(envFile ?? ".env", { required: envFile !== undefined });
  const env = mergeEnv(fileValues, parameters.env ?? process.env);
  return parsePublicKeyPem(env[variable] ?? "");
}
