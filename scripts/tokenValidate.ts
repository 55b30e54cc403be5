// npm run token:validate -- <jwt|-> --audience <app_slug> [--issuer NAME] [--scope S]... [--clock-skew SECONDS] [--dotenv PATH]
// (`--dotenv`, not `--env-file`: tsx hands `--env-file` to node itself, wherever it appears.)
// The public key comes from JWT_PUBLIC_KEY (environment or .env).
import { text } from "node:stream/consumers";
import { parseCli } from "subgraph-workbench/cli";
import { runValidateCommand } from "../clients/marketplace/index.js";

const { values, positionals } = parseCli({
  audience: { type: "string" },
  issuer: { type: "string" },
  scope: { type: "string", multiple: true },
  "clock-skew": { type: "string" },
  dotenv: { type: "string" },
});

process.exitCode = await runValidateCommand(
  {
    token: positionals[0],
    audience: values.audience,
    issuer: values.issuer,
    scopes: values.scope,
    envFile: values.dotenv,
    clockSkewSeconds: values["clock-skew"] === undefined ? undefined : Number(values["clock-skew"]),
  },
  {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: () => text(process.stdin),
  },
);
