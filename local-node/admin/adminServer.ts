// createAdminServer: graph-node's admin JSON-RPC endpoint (POST / on port 8020) on 127.0.0.1.
import { handleJsonRpcBody } from "./jsonRpc.js";
import { createRegistrarMethods } from "./registrar.js";
import type { AdminServerOptions, RunningAdminServer } from "./types.js";
import { BodyTooLargeError, readText, sendJson, serve } from "../../lib/http/index.js";

/** axum's default body limit, which graph-node's server keeps. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

export async function createAdminServer(options: AdminServerOptions): Promise<RunningAdminServer> {
  const methods = createRegistrarMethods(options);
  const log = options.log ?? (() => {});
  return serve((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== "/") {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { Allow: "POST" }).end();
      return;
    }
    readText(req, { maxBytes: MAX_BODY_BYTES })
      .then((body) => handleJsonRpcBody(methods, body))
      .then((answer) => sendJson(res, 200, answer))
      .catch((error: unknown) => {
        if (error instanceof BodyTooLargeError) {
          res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8" }).end("length limit exceeded");
          req.resume();
          return;
        }
        log("error", `admin request failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("internal error");
      });
  }, { port: options.port });
}
