// The transport every action shares: GET `{nodeUrl}/v1/<path>`, JSON in, typed errors out. Plain fetch keeps the
// exact REST paths and the node's raw error bodies visible (see docs/readme/move.md for why there is no SDK).
import { parseErrorBody } from "./decode.js";
import { InvalidArgumentError, MoveApiError, MoveNetworkError, MoveResponseError, MoveTimeoutError } from "./errors.js";
import { maskUrl as maskAnyUrl } from "subgraph-workbench/lib/redact";

/** Node URLs keep the REST path the client appends after `/v1/` and its paging parameters. */
function maskUrl(url: string): string {
  return maskAnyUrl(url, { keepPathFrom: "v1", publicQuery: ["start", "limit"] });
}
import type { LedgerHeaders } from "./types.js";

export type MoveClientOptions = {
  /** Node address without `/v1`, e.g. `https://host/<API_KEY>` (a trailing `/v1` is accepted and dropped). */
  nodeUrl: string;
  /** Injected for tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request; default 15 000 ms. */
  timeoutMs?: number;
  /** Extra request headers (e.g. an API key header some gateways want). */
  headers?: Record<string, string>;
};

export type MoveResponse<T> = { status: number; body: T; ledger: LedgerHeaders };

export type QueryValue = string | number | bigint | undefined;

export type MoveClient = {
  /** The node address with its access key masked; safe to print. */
  readonly displayUrl: string;
  /** GET `/v1/<path>`; `segments` are URL-encoded one by one. Throws MoveApiError on a non-2xx answer. */
  get<T = unknown>(segments: readonly string[], query?: Record<string, QueryValue>): Promise<MoveResponse<T>>;
};

const DEFAULT_TIMEOUT_MS = 15_000;

export function createMoveClient(options: MoveClientOptions): MoveClient {
  const base = parseBase(options.nodeUrl);
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new InvalidArgumentError(`timeoutMs must be a positive integer, got ${timeoutMs}`);

  async function get<T>(segments: readonly string[], query: Record<string, QueryValue> = {}): Promise<MoveResponse<T>> {
    const url = new URL(`${base.pathname.replace(/\/$/, "")}/v1/${segments.map(encodeSegment).join("/")}`, base);
    // A key given in the node URL's query (`?apikey=...`) travels with every request.
    for (const [key, value] of base.searchParams) url.searchParams.set(key, value);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    const shown = maskUrl(url.toString());

    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: "GET",
        headers: { Accept: "application/json", "Content-Type": "application/json", ...options.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      if (isTimeout(error)) throw new MoveTimeoutError({ url: shown, timeoutMs, cause: error });
      throw new MoveNetworkError({ url: shown, reason: describeNetworkFailure(error), cause: error });
    }

    if (!response.ok) throw new MoveApiError({ status: response.status, url: shown, body: parseErrorBody(text), rawBody: text });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new MoveResponseError(`The Move node answered HTTP ${response.status} with a body that is not JSON`, {
        detail: `URL: ${shown}; body: ${text.slice(0, 200)}`,
        cause: error,
      });
    }
    return { status: response.status, body: body as T, ledger: readLedgerHeaders(response.headers) };
  }

  return { displayUrl: maskUrl(base.toString()), get };
}

function parseBase(nodeUrl: string): URL {
  let url: URL;
  try {
    url = new URL(nodeUrl.trim());
  } catch {
    throw new InvalidArgumentError("The Move node URL is not a valid URL", { detail: `URL: ${maskUrl(nodeUrl)}` });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError(`The Move node URL must use http or https, not ${url.protocol}`);
  }
  url.pathname = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "") || "/";
  url.hash = "";
  return url;
}

// `:` is legal in a path segment and keeps struct tags (`0x1::message::MessageHolder`) readable in messages.
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%3A/gi, ":");
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
}

// undici reports "fetch failed" and puts the system error (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
function describeNetworkFailure(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === "string") {
    const hint: Record<string, string> = {
      ECONNREFUSED: "connection refused (is the node running and the port right?)",
      ECONNRESET: "connection reset by the node",
      ENOTFOUND: "host name not found",
      EAI_AGAIN: "host name lookup failed",
      UND_ERR_SOCKET: "the node closed the connection",
    };
    return hint[cause.code] ?? `${cause.code}${typeof cause.message === "string" ? ` (${cause.message})` : ""}`;
  }
  if (cause && typeof cause.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function readLedgerHeaders(headers: Headers): LedgerHeaders {
  const big = (name: string): bigint | undefined => {
    const value = headers.get(name);
    return value !== null && /^\d+$/.test(value) ? BigInt(value) : undefined;
  };
  const chain = headers.get("x-aptos-chain-id");
  return {
    chainId: chain !== null && /^\d+$/.test(chain) ? Number(chain) : undefined,
    ledgerVersion: big("x-aptos-ledger-version"),
    ledgerTimestampUs: big("x-aptos-ledger-timestampusec"),
    blockHeight: big("x-aptos-block-height"),
  };
}
