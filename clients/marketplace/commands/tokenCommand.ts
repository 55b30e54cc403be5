// `npm run token -- --slug <app_slug> [--decode]`: fetch the application token and print it.
import { decodeUnverified } from "../decodeUnverified.js";
import { fetchApplicationToken } from "../fetchApplicationToken.js";
import { resolveEnv, type CommandIo, failureExitCode } from "./commandIo.js";

export type TokenCommandOptions = {
  slug?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  envFile?: string | undefined;
  decode?: boolean | undefined;
  timeoutMs?: number | undefined;
  fetch?: typeof globalThis.fetch;
};

export const TOKEN_ENV = {
  baseUrl: "MARKETPLACE_BASE_URL",
  apiKey: "MARKETPLACE_API_KEY",
  slug: "MARKETPLACE_APP_SLUG",
} as const;

/** Prints the token (or its unverified header and claims); returns the exit code. */
export async function runTokenCommand(options: TokenCommandOptions, io: CommandIo): Promise<number> {
  try {
    const env = resolveEnv(options.envFile, io.env);
    const { accessToken } = await fetchApplicationToken({
      baseUrl: options.baseUrl ?? env[TOKEN_ENV.baseUrl] ?? "",
      apiKey: options.apiKey ?? env[TOKEN_ENV.apiKey] ?? "",
      slug: options.slug ?? env[TOKEN_ENV.slug] ?? "",
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    if (!options.decode) {
      io.stdout(`${accessToken}\n`);
      return 0;
    }
    const { header, claims } = decodeUnverified(accessToken);
    io.stdout(
      [
        "UNVERIFIED: decoded without checking the signature; use `npm run token:validate` to verify.",
        `header (unverified): ${JSON.stringify(header, null, 2)}`,
        `claims (unverified): ${JSON.stringify(claims, null, 2)}`,
        "",
      ].join("\n"),
    );
    return 0;
  } catch (error) {
    return failureExitCode(error, io);
  }
}
