// Small HTTP helpers shared by the query and status servers (loopback only).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listenOnLoopback, type RunningServer } from "../http/index.js";

export const MAX_BODY_BYTES = 1 << 20;

export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError("request body too large");
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Headers": "Content-Type, User-Agent",
    "Access-Control-Allow-Methods": "GET, OPTIONS, POST",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": contentType, "Access-Control-Allow-Origin": "*", "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

export type { RunningServer } from "../http/index.js";

/** Listens on 127.0.0.1 only; `port` 0 picks a free port. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>, port: number, onError: (error: unknown) => void): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) sendText(res, 500, "text/plain; charset=utf-8", "Internal server error");
      else res.end();
    });
  });
  server.keepAliveTimeout = 5000;
  return listenOnLoopback(server, port);
}
