import { parseArgs, type ParseArgsConfig } from "node:util";

/** Parses CLI flags with node's parser; unknown flags are an error that names the flag. */
export function parseCli<T extends NonNullable<ParseArgsConfig["options"]>>(options: T, argv = process.argv.slice(2)) {
  return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
}

/** Prints an error without a stack trace and exits 1. */
export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`error: ${message}`);
  process.exit(1);
}
