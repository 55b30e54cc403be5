// `npm run token:validate -- <jwt> --audience <slug>`: validate a token with JWT_PUBLIC_KEY.
import { loadPublicKey } from "../loadPublicKey.js";
import { createTokenValidator } from "../validateToken.js";
import { resolveEnv, type CommandIo, failureExitCode } from "./commandIo.js";
import { TOKEN_ENV } from "./tokenCommand.js";

export type ValidateCommandOptions = {
  /** The JWT, or `-` to read it from standard input. */
  token?: string | undefined;
  audience?: string | undefined;
  issuer?: string | undefined;
  scopes?: readonly string[] | undefined;
  envFile?: string | undefined;
  clockSkewSeconds?: number | undefined;
};

/** Prints the verified claims as JSON (exit 0) or the reference error message (exit 1). */
export async function runValidateCommand(options: ValidateCommandOptions, io: CommandIo): Promise<number> {
  try {
    const env = resolveEnv(options.envFile, io.env);
    const audience = options.audience ?? env[TOKEN_ENV.slug] ?? "";
    if (audience === "") {
      io.stderr(`An audience is required: --audience <app_slug> or ${TOKEN_ENV.slug}\n`);
      return 2;
    }
    let token = options.token ?? "";
    if (token === "-") token = ((await io.readStdin?.()) ?? "").trim();
    if (token === "") {
      io.stderr("A token is required: token:validate <jwt> (or - to read standard input)\n");
      return 2;
    }
    const validator = createTokenValidator({
      publicKey: loadPublicKey({ env, envFile: false }),
      audience,
      ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
      ...(options.scopes === undefined ? {} : { requiredScopes: options.scopes }),
      ...(options.clockSkewSeconds === undefined ? {} : { clockSkewSeconds: options.clockSkewSeconds }),
    });
    const claims = validator.validate(token);
    io.stdout(`${JSON.stringify({ valid: true, claims }, null, 2)}\n`);
    return 0;
  } catch (error) {
    return failureExitCode(error, io);
  }
}
