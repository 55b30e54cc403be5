// npm run token -- --slug <app_slug> [--decode] [--base-url URL] [--api-key KEY] [--dotenv PATH] [--timeout MS]
// (`--dotenv`, not `--env-file`: tsx hands `--env-file` to node itself, wherever it appears.)
// Env: MARKETPLACE_BASE_URL, MARKETPLACE_API_KEY, MARKETPLACE_APP_SLUG (also read from .env).
import { parseCli } from "subgraph-workbench/cli";
import { runTokenCommand } from "../clients/marketplace/index.js";

const { values } = parseCli({
  slug: { type: "string" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  dotenv: { type: "string" },
  decode: { type: "boolean", default: false },
  timeout: { type: "string" },
});

process.exitCode = await runTokenCommand(
  {
    slug: values.slug,
    baseUrl: values["base-url"],
    apiKey: values["api-key"],
    envFile: values.dotenv,
    decode: values.decode,
    timeoutMs: values.timeout === undefined ? undefined : Number(values.timeout),
  },
  { env: process.env, stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) },
);
