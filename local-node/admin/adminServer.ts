// createAdminServer: graph-node's admin JSON-RPC endpoint (POST / on port 8020) on 127.0.0.1.
import { createServer, type IncomingMessage } from "node:http";
import { handleJsonRpcBody } from "./jsonRpc.js";
import { createRegistrarMethods } from "./registrar.js";
import type { AdminServerOptions, RunningAdminServer } from "./types.js";
import { listenOnLoopback } from "../http/index.js";

/** axum's default body limit, which graph-node's server keeps. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function createAdminServer(options: AdminServerOptions): Promise<RunningAdminServer> {
  const methods = createRegistrarMethods(options);
  const log = options.log ?? (() => {});
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== "/") {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { Allow: "POST" }).end();
      return;
    }
    readBody(req)
      .then((body) => handleJsonRpcBody(methods, body))
      .then((answer) => {
        const text = JSON.stringify(answer);
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
      })
      .catch((error: unknown) => {
        if (error instanceof BodyTooLarge) {
          res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8" }).end("length limit exceeded");
          req.resume();
          return;
        }
        log("error", `admin request failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("internal error");
      });
  });
  return listenOnLoopback(server, options.port);
}
