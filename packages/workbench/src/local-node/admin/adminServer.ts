// createAdminServer: graph-node's admin JSON-RPC endpoint (POST / on port 8020) on 127.0.0.1.
// Unlike graph-node it requires `Content-Type: application/json`: a page on another site can send a
// text/plain POST with `no-cors` to 127.0.0.1, but not a JSON one without a CORS preflight.
import type { IncomingMessage } from "node:http";
import { handleJsonRpcBody } from "./jsonRpc.js";
import { createRegistrarMethods } from "./registrar.js";
import type { AdminServerOptions, RunningAdminServer } from "./types.js";
import { BodyTooLargeError, describeError, readText, sendJson, serve } from "../../lib/http/index.js";

/** axum's default body limit, which graph-node's server keeps. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** True for `application/json`, with or without parameters such as `; charset=utf-8`. */
function isJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers["content-type"];
  return type !== undefined && type.split(";")[0]!.trim().toLowerCase() === "application/json";
}

export async function createAdminServer(options: AdminServerOptions): Promise<RunningAdminServer> {
  const methods = createRegistrarMethods(options);
  const log = options.log ?? (() => {});
  return serve(
    async (req, res, url) => {
      if (url.pathname !== "/") {
        res.writeHead(404).end();
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405, { Allow: "POST" }).end();
        return;
      }
      if (!isJsonContentType(req)) {
        // axum's answer to a Json body without the header.
        res.writeHead(415, { "Content-Type": "text/plain; charset=utf-8" }).end("Expected request with `Content-Type: application/json`");
        return;
      }
      let body: string;
      try {
        body = await readText(req, { maxBytes: MAX_BODY_BYTES });
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) throw error;
        res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8" }).end("length limit exceeded");
        return;
      }
      sendJson(res, 200, await handleJsonRpcBody(methods, body));
    },
    {
      port: options.port,
      loopbackOnly: true,
      onError: (error, request) => log("error", `${request ? `${request.method} ${request.path} failed` : "server error"}: ${describeError(error)}`),
    },
  );
}
