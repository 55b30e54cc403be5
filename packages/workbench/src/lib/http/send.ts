// Whole answers with a Content-Length: JSON, text, and plain-text errors.
import type { ServerResponse } from "node:http";

export type HeaderMap = Readonly<Record<string, string>>;

/** `Access-Control-Allow-Origin: *`. */
export const ANY_ORIGIN: HeaderMap = { "Access-Control-Allow-Origin": "*" };

/** graph-node's CORS answer: any origin, GET/OPTIONS/POST, the Content-Type and User-Agent headers. */
export const CORS_HEADERS: HeaderMap = {
  ...ANY_ORIGIN,
  "Access-Control-Allow-Headers": "Content-Type, User-Agent",
  "Access-Control-Allow-Methods": "GET, OPTIONS, POST",
};

/** `body` as JSON (`Content-Type: application/json`), then `headers`, then Content-Length. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: HeaderMap = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", ...headers, "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** `body` with its content type, then `headers`, then Content-Length. */
export function sendText(res: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: HeaderMap = {}): void {
  res.writeHead(status, { "Content-Type": contentType, ...headers, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** A plain-text error answer (`text/plain; charset=utf-8`). */
export function sendError(res: ServerResponse, status: number, message: string, headers: HeaderMap = {}): void {
  sendText(res, status, "text/plain; charset=utf-8", message, headers);
}
