import { parseArgs, type ParseArgsConfig } from "node:util";

/** Parses CLI flags with node's parser; an unknown or malformed flag prints what was wrong and exits 2. */
export function parseCli<T extends NonNullable<ParseArgsConfig["options"]>>(options: T, argv = process.argv.slice(2)) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}

/** Prints an error without a stack trace and exits 1. */
export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`error: ${message}`);
  process.exit(1);
}
