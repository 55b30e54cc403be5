// Servers on 127.0.0.1, closed at once: closing also drops open and idle keep-alive connections. Only a
// process inside a container, reached from a sibling container, listens on another host (see `host`).
// serve() answers what its handler cannot: a malformed request target (400), a request a browser page
// must not make (403, with `loopbackOnly`), and a handler that throws or rejects (500, told to onError).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loopbackRefusal } from "./loopback.js";
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

/** The parsed request target, passed to handlers so none parses `req.url` (and throws) itself. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => unknown;

/** What onError is told about the request that failed (never its body, headers or query string). */
export interface FailedRequest {
  method: string;
  path: string;
}

export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number | undefined;
  /**
   * Told once about every request whose handler threw or rejected, and about server errors after
   * listening (request null). Without it, such errors are written to stderr: no 500 goes unreported.
   */
  onError?: ((error: unknown, request: FailedRequest | null) => void) | undefined;
  /** Headers of the 500 answer to such a request (e.g. ANY_ORIGIN). */
  errorHeaders?: HeaderMap | undefined;
  /** 127.0.0.1 unless a container must be reached from a sibling container (0.0.0.0 there). */
  host?: string | undefined;
  /**
   * Refuse (403) a request whose Host is not a loopback name or whose Origin is not a loopback origin,
   * before the handler sees it: a page on another site cannot drive the server, nor read it through
   * DNS rebinding. For servers meant for this machine only.
   */
  loopbackOnly?: boolean | undefined;
}

/**
 * The request target as a URL, or null when it is not a path (`//[`, `*`, an absolute URL) or does not
 * parse: `new URL` would otherwise throw in the handler, or read `//host/x` as a host.
 */
export function parseRequestTarget(target: string | undefined): URL | null {
  if (target === undefined || !target.startsWith("/") || target.startsWith("//")) return null;
  try {
    return new URL(target, "http://127.0.0.1");
  } catch {
    return null;
  }
}

/** An error with its causes and stack, for a log line about a 500. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const stack = error instanceof Error && error.stack ? `\n${error.stack.split("\n").slice(1).join("\n")}` : "";
  return parts.join("; caused by ") + stack;
}

function reportToStderr(error: unknown, request: FailedRequest | null): void {
  console.error(`server error${request ? ` on ${request.method} ${request.path}` : ""}: ${describeError(error)}`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** A server for `handler` on 127.0.0.1 (see ServeOptions for what it answers itself). */
export async function serve(handler: RequestHandler, options: ServeOptions = {}): Promise<RunningServer> {
  const onError = options.onError ?? reportToStderr;
  const server = createServer((req, res) => {
    const url = parseRequestTarget(req.url);
    if (url === null) {
      sendError(res, 400, "Bad Request: malformed request target\n", { Connection: "close" });
      return;
    }
    if (options.loopbackOnly) {
      const refusal = loopbackRefusal(req);
      if (refusal !== null) {
        sendError(res, 403, `Forbidden: ${refusal}\n`);
        return;
      }
    }
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      onError(error, { method: req.method ?? "", path: url.pathname });
      if (!res.headersSent) sendError(res, 500, "Internal server error", options.errorHeaders);
      // A started answer cannot turn into an error: cut it off rather than let it look complete.
      else res.destroy();
      // Drain what the client still sends, so it receives the 500.
      req.resume();
    };
    try {
      // Whatever the handler returns: only a thenable is waited on (a `res.end()` result is not).
      const pending: unknown = handler(req, res, url);
      if (isThenable(pending)) pending.then(undefined, fail);
    } catch (error) {
      fail(error);
    }
  });
  const running = await listen(server, options.port ?? 0, options.host);
  // After listening, a server error (e.g. EMFILE on accept) is reported, never an uncaught 'error' event.
  server.on("error", (error) => onError(error, null));
  return running;
}
