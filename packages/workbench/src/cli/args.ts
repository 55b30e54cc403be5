import { parseArgs, type ParseArgsConfig } from "node:util";

/**
 * Parses CLI flags with node's parser; an unknown or malformed flag prints what was wrong and exits 2.
 * With a `usage` text, `-h`/`--help` prints it and exits 0.
 */
export function parseCli<T extends NonNullable<ParseArgsConfig["options"]>>(options: T, argv = process.argv.slice(2), usage?: string) {
  if (usage !== undefined && argv.some((a) => a === "-h" || a === "--help")) {
    process.stdout.write(usage.endsWith("\n") ? usage : `${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}${usage !== undefined ? " (--help lists the options)" : ""}`);
    process.exit(2);
  }
}

/** Prints an error without a stack trace and exits 1. */
export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`error: ${message}`);
  process.exit(1);
}
