// Guards an HTTP app with the marketplace token. The (req, res, next) shape works with Node's http server
// (call the handler from `next`) and with Express/Connect-style frameworks.
import type { IncomingMessage, ServerResponse } from "node:http";
import { InsufficientScopeError, MissingBearerTokenError, TokenValidationError } from "./errors.js";
import type { MarketplaceClaims } from "./internal/checkClaims.js";
import type { TokenValidator } from "./validateToken.js";

export type AuthenticatedRequest = IncomingMessage & {
  /** The validated claims, set by the middleware before `next()`. */
  auth?: MarketplaceClaims;
};

export type TokenMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export type TokenMiddlewareOptions = {
  validator: TokenValidator;
  /** Scope(s) every request must carry, on top of the validator's own requiredScopes. */
  requiredScope?: string | readonly string[];
};

/** The JSON body of a refused request. */
export type TokenErrorBody = {
  /** The reference validator's message, e.g. `Invalid Token: Invalid audience`. */
  error: string;
  /** Stable error code, e.g. `ERR_JWT_EXPIRED`. */
  code: string;
};

const BEARER = /^Bearer[ \t]+([^ \t]+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <jwt>` header, or undefined. */
export function readBearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== "string") return undefined;
  return BEARER.exec(header)?.[1];
}

function refuse(res: ServerResponse, status: number, challenge: string, error: TokenValidationError): void {
  const body: TokenErrorBody = { error: error.message, code: error.code };
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("WWW-Authenticate", challenge);
  res.end(text);
}

/**
 * 401 with `{error, code}` when the token is missing or fails validation; 403 (RFC 6750
 * insufficient_scope) when it is valid but lacks a required scope. On success `req.auth` holds the claims.
 */
export function createTokenMiddleware(options: TokenMiddlewareOptions): TokenMiddleware {
  const { validator } = options;
  const required = options.requiredScope === undefined ? [] : [options.requiredScope].flat();

  return (req, res, next) => {
    const token = readBearerToken(req);
    if (token === undefined) {
      refuse(res, 401, "Bearer", new MissingBearerTokenError());
      return;
    }
    let claims: MarketplaceClaims;
    try {
      claims = validator.validate(token);
      const missingScopes = required.filter((s) => !claims.scope.includes(s));
      if (missingScopes.length > 0) {
        throw new InsufficientScopeError({ details: { reason: "missing required scope", missingScopes } });
      }
    } catch (error) {
      if (error instanceof InsufficientScopeError) {
        const scopes = (error.details["missingScopes"] as string[] | undefined) ?? [];
        refuse(res, 403, `Bearer error="insufficient_scope", scope="${scopes.join(" ")}"`, error);
      } else if (error instanceof TokenValidationError) {
        refuse(res, 401, 'Bearer error="invalid_token"', error);
      } else {
        next(error);
      }
      return;
    }
    (req as AuthenticatedRequest).auth = claims;
    next();
  };
}
