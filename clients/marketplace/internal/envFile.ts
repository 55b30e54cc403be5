// .env reading with dotenv's parser and the reference's error text (Go's godotenv wraps os.Open's error:
// "open .env: no such file or directory").
import { readFileSync } from "node:fs";
import { parse } from "dotenv";
import { EnvFileError } from "../errors.js";

// Node error codes and the words Go's syscall errors print for them.
const GO_ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "not a directory",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
};

function goReason(path: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  // Go opens a directory fine and fails on the first read.
  if (code === "EISDIR") return `read ${path}: is a directory`;
  const text = typeof code === "string" ? GO_ERRNO_TEXT[code] : undefined;
  return `open ${path}: ${text ?? (error instanceof Error ? error.message : String(error))}`;
}

export type ReadEnvFileOptions = {
  /** A missing file is an error only when the caller asked for this file explicitly. */
  required: boolean;
};

/** The variables of a .env file, or an empty record when an optional file is absent. */
export function readEnvFile(path: string, options: ReadEnvFileOptions): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (!options.required && code === "ENOENT") return {};
    throw new EnvFileError(goReason(path, error), { cause: error, details: { path } });
  }
  return parse(text);
}

/**
 * The process environment over the file's values: like godotenv.Load, a variable already present in the
 * environment (even empty) is not overridden by the file.
 */
export function mergeEnv(
  fileValues: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  return { ...fileValues, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
}
