// npm run example:guarded-app -- --audience <app_slug> [--port 8787] [--paid-scope SCOPE] [--dotenv PATH]
// (`--dotenv`, not `--env-file`: tsx hands `--env-file` to node itself, wherever it appears.)
// Serves /health, /whoami (token required) and /paid (token with the paid scope) on 127.0.0.1.
import { parseArgs } from "node:util";
import { createGuardedApp, createTokenValidator, loadPublicKey } from "../clients/marketplace/index.js";

const { values } = parseArgs({
  options: {
    audience: { type: "string" },
    port: { type: "string", default: "8787" },
    "paid-scope": { type: "string" },
    dotenv: { type: "string" },
  },
});

const audience = values.audience ?? process.env["MARKETPLACE_APP_SLUG"];
const port = Number(values.port);
if (!audience || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error("usage: npm run example:guarded-app -- --audience <app_slug> [--port 8787] [--paid-scope SCOPE]");
  process.exit(2);
}
try {
  // The key is parsed once here and reused by every request.
  const publicKey = loadPublicKey(values.dotenv === undefined ? {} : { envFile: values.dotenv });
  const paidScope = values["paid-scope"] ?? `com.${audience}.api.Paid`;
  const app = createGuardedApp({ validator: createTokenValidator({ publicKey, audience }), paidScope });
  app.listen(port, "127.0.0.1", () => {
    console.log(`guarded app for "${audience}" on http://127.0.0.1:${port} (/health, /whoami, /paid needs ${paidScope})`);
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
