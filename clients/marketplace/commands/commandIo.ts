// What the CLI commands need from the process, injected so tests can run them in-process.
import { MarketplaceError } from "../errors.js";
import { mergeEnv, readEnvFile } from "../internal/envFile.js";

export type CommandIo = {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads standard input (for a token given as `-`). */
  readonly readStdin?: () => Promise<string>;
};

/** The environment over a .env file: an explicit file must exist, the default `.env` is optional. */
export function resolveEnv(envFile: string | undefined, env: CommandIo["env"]): Record<string, string | undefined> {
  return mergeEnv(readEnvFile(envFile ?? ".env", { required: envFile !== undefined }), env);
}

/**
 * The exit code for a command's failure, with its message on stderr: bad options (a non-numeric
 * timeout or skew) are usage errors (2), marketplace errors are 1, anything else is a bug to surface.
 */
export function failureExitCode(error: unknown, io: CommandIo): number {
  if (error instanceof TypeError) {
    io.stderr(`${error.message}\n`);
    return 2;
  }
  if (!(error instanceof MarketplaceError)) throw error;
  io.stderr(`${error.message}\n`);
  return 1;
}
