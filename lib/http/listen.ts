// Servers on 127.0.0.1, closed at once: closing also drops open and idle keep-alive connections. Only a
// process inside a container, reached from a sibling container, listens on another host (see `host`).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sendError, type HeaderMap } from "./send.js";

export interface RunningServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  /** Stops listening and drops every connection, idle or open. Calling it again is harmless. */
  close(): Promise<void>;
}

/**
 * Starts `server` on 127.0.0.1 (`port` 0, the default, picks a free port). A listen failure such as
 * EADDRINUSE rejects with Node's own error.
 */
export async function listen(server: Server, port = 0, host = "127.0.0.1"): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${actual}`,
    port: actual,
    // Idempotent: a second close (an error path after a normal one) waits for the first.
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number | undefined;
  /** Told about every request whose handler threw or rejected (the error only, never request data). */
  onError?: ((error: unknown) => void) | undefined;
  /** Headers of the 500 answer to such a request (e.g. ANY_ORIGIN). */
  errorHeaders?: HeaderMap | undefined;
  /** 127.0.0.1 unless a container must be reached from a sibling container (0.0.0.0 there). */
  host?: string | undefined;
}

/**
 * A server for `handler` on 127.0.0.1. A handler that throws or rejects is answered 500
 * "Internal server error" (text/plain), or has its answer ended when the head was already sent.
 */
export function serve(handler: RequestHandler, options: ServeOptions = {}): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const fail = (error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) sendError(res, 500, "Internal server error", options.errorHeaders);
      else res.end();
    };
    try {
      const pending = handler(req, res);
      if (pending) pending.catch(fail);
    } catch (error) {
      fail(error);
    }
  });
  return listen(server, options.port ?? 0, options.host);
}
