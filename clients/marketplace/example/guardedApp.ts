// A small app guarded by the marketplace token, as the README shows it: /health is public, /whoami needs
// a valid token, /paid also needs the paid scope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createTokenMiddleware, type AuthenticatedRequest, type TokenMiddleware } from "../middleware.js";
import type { TokenValidator } from "../validateToken.js";

export type GuardedAppOptions = {
  validator: TokenValidator;
  /** Scope the /paid route requires. */
  paidScope: string;
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify(body));
}

function guarded(middleware: TokenMiddleware, req: IncomingMessage, res: ServerResponse, handler: () => void): void {
  middleware(req, res, (error) => (error ? sendJson(res, 500, { error: "internal error" }) : handler()));
}

export function createGuardedApp(options: GuardedAppOptions): Server {
  const anyToken = createTokenMiddleware({ validator: options.validator });
  const paid = createTokenMiddleware({ validator: options.validator, requiredScope: options.paidScope });
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method !== "GET") return sendJson(res, 405, { error: "method not allowed" });
    if (path === "/health") return sendJson(res, 200, { ok: true });
    if (path === "/whoami") {
      return guarded(anyToken, req, res, () => {
        const claims = (req as AuthenticatedRequest).auth;
        sendJson(res, 200, { account: claims?.sub, application: claims?.aud, scopes: claims?.scope, expiresAt: claims?.exp });
      });
    }
    if (path === "/paid") {
      return guarded(paid, req, res, () => sendJson(res, 200, { feature: "paid", account: (req as AuthenticatedRequest).auth?.sub }));
    }
    sendJson(res, 404, { error: "not found" });
  });
}
