// Errors of the Matchstick-compatible runner: a short message, the cause, and details a user can act on.
import { BaseError, type BaseErrorOptions } from "../lib/errors.js";

export type RunnerErrorOptions = BaseErrorOptions;

export class RunnerError extends BaseError {
  override name = "RunnerError";
}

/** matchstick.yaml, the manifest or the tests folder cannot be used. */
export class ConfigError extends RunnerError {
  override name = "ConfigError";
}

/** No test files, or a name filter that matches nothing. */
export class DiscoveryError extends RunnerError {
  override name = "DiscoveryError";
}

/** The AssemblyScript compiler could not be loaded or run (not a diagnostic in the user's code). */
export class CompilerError extends RunnerError {
  override name = "CompilerError";
}

/**
 * `log.critical` (or an internal Matchstick-level failure such as a failing hook): Matchstick panics and
 * the whole run stops.
 */
export class CriticalAbort extends RunnerError {
  override name = "CriticalAbort";
}
