// What a browser page must not be able to do to a server on 127.0.0.1: post to it from another site
// (its Origin is foreign) or read its answers through DNS rebinding (its Host is a foreign name that
// resolved to 127.0.0.1). Programs (curl, graph-cli, our scripts) send no Origin and a loopback Host.
import type { IncomingMessage } from "node:http";

/** localhost, *.localhost (browsers resolve it to loopback themselves), 127.0.0.0/8 and [::1]. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name === "[::1]" || name === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The hostname of a Host header value (WHATWG parsing, so `2130706433` is 127.0.0.1); null if malformed. */
function hostnameOf(host: string): string | null {
  try {
    const url = new URL(`http://${host}`);
    // Anything past host[:port] (a path, credentials) is not a Host value.
    return url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "" ? url.hostname : null;
  } catch {
    return null;
  }
}

/** True for an http(s) origin on a loopback name (`http://localhost:3000`, `http://127.0.0.1:8000`). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHostname(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Why this request is refused, or null when it may be served: its Host must be a loopback name (when
 * present) and its Origin, when present, a loopback origin.
 */
export function loopbackRefusal(req: IncomingMessage): string | null {
  const host = req.headers.host;
  if (host !== undefined) {
    const hostname = hostnameOf(host);
    if (hostname === null || !isLoopbackHostname(hostname)) {
      return `the Host ${JSON.stringify(host)} is not a loopback name; this node answers only requests to localhost or 127.0.0.1`;
    }
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return `the Origin ${JSON.stringify(origin)} is not a loopback origin; this node answers pages served from localhost only`;
  }
  return null;
}
