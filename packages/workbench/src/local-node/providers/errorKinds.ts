// What a failed JSON-RPC request means, from the shapes hosted providers and Ethereum clients answer with
// (errorKinds.test.ts holds one documented answer of each): the caller must ask for fewer blocks, the
// provider limits our rate, the provider has not got the block yet, the transport failed, the provider
// refuses this key, or the request itself is wrong. Only the first and the last concern the caller; the
// pool (providerPool.ts) absorbs the others, by waiting or asking another provider.
import {
  ConnectionError,
  HttpRequestError,
  InvalidResponseError,
  MissingBatchResponseError,
  ResponseTooLargeError,
  RpcResponseError,
  TimeoutError,
} from "../../json-rpc/index.js";

export type ErrorKind =
  /** The range or its answer is too large: ask for fewer blocks (never a rate limit). */
  | "range"
  /** The provider limits our rate: slow down, honor Retry-After; the request itself is fine. */
  | "rate"
  /** The provider's node does not have the block yet (a lagging backend): wait, or ask another. */
  | "behind"
  /** The transport failed (reset, timeout, 5xx, truncated or empty body, a batch element left out). */
  | "transient"
  /** The provider refuses this key or plan (401, 403, quota spent): skip it for a long while. */
  | "refused"
  /** A real answer about the request (a revert, bad params, an unknown method): the caller's. */
  | "fatal";

export interface Classified {
  kind: ErrorKind;
  /** How long the provider asked us to wait (Retry-After, or "retry in 10s" in the message). */
  retryAfterMs: number | null;
  /** A workable last block the provider suggested for a range starting at the asked fromBlock. */
  suggestedRange: { from: number; to: number } | null;
}

// A range or result-size cap. Each alternative is one vendor's or client's wording (see the test's fixtures).
const RANGE_TOO_LARGE = new RegExp(
  [
    "log response size exceeded", // Alchemy, paid
    "eth_getlogs requests with up to a", // Alchemy, free tier
    "block range should work", // Alchemy's hint
    "query returned more than \\d+ results", // Infura, geth-era providers
    "range \\d+ exceeds limit of \\d+", // Infura
    "eth_getlogs (and eth_newfilter )?are limited to", // QuickNode
    "eth_getlogs is limited to", // QuickNode
    "block range is too wide", // Ankr, Frontier-based chains
    "block range too (large|high)", // cdk-erigon, others
    "block range is (larger|bigger) than", // op-geth forks
    "range \\d+ is bigger than range limit", // Tenderly
    "exceed(s|ed)? (the )?max(imum)? block range", // geth forks
    "query exceeds max block range", // reth
    "query exceeds max results", // reth
    "query block range exceeds server limit", // erigon
    "query returns too many logs", // erigon
    "requested range exceeds maximum rpc range limit", // besu
    "too many (logs|results|blocks)",
    "response (size|is too) (big|large)",
    "query timeout exceeded", // Infura's 10 s getLogs cap, geth
    "logs? (matched|returned) (exceeds?|more than)",
  ].join("|"),
  "i",
);

// A provider's rate or capacity limit for this second: wait and send again.
const RATE_LIMITED = /rate limit|too many requests|exceeded its compute units|compute units per second|request limit reached|requests? per second|capacity exceeded|throughput|daily request count exceeded|credits\/second|call rate limit|limit exceeded/i;

// The node has not got the block, or cannot serve it yet.
const BEHIND = /header not found|unknown block|block not found|could not be found|cannot be found|extends beyond current head|beyond (the )?(current )?head|resource not found|missing block|block .* not (yet )?available|not synced|is syncing/i;

// The provider refuses this key or plan for good (a quota spent for the month, a key not allowed).
const REFUSED = /monthly capacity|quota (exceeded|reached)|must be authenticated|invalid api key|unauthorized|rejected due to|not allowed|is not enabled/i;

/** Seconds or an HTTP date, as Retry-After carries it; a phrase like "retry in 10s" or "try again in 2 seconds". */
export function retryAfterMs(header: string | null | undefined, message = ""): number | null {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  const m = /(?:retry|try again) (?:in|after) (\d+(?:\.\d+)?) ?(ms|milliseconds?|s|sec|seconds?)\b/i.exec(message);
  if (m?.[1]) return Number(m[1]) * (m[2]?.startsWith("m") ? 1 : 1000);
  return null;
}

/** A range the provider suggests: "[0x10, 0x2f]" (Alchemy, Infura) or "retry with the range 100-200" (reth). */
export function suggestedRange(message: string): { from: number; to: number } | null {
  const hex = /\[(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\]/i.exec(message);
  if (hex?.[1] && hex[2]) return { from: Number.parseInt(hex[1], 16), to: Number.parseInt(hex[2], 16) };
  const dec = /range (\d+)\s*-\s*(\d+)/i.exec(message);
  if (dec?.[1] && dec[2]) return { from: Number(dec[1]), to: Number(dec[2]) };
  return null;
}

function textOf(err: RpcResponseError): string {
  // Some providers put the reason in `data` (Tenderly's payload, Infura's details).
  const data = err.data;
  const extra = typeof data === "string" ? data : typeof data === "object" && data !== null ? JSON.stringify(data) : "";
  return `${err.message} ${extra}`;
}

function classified(kind: ErrorKind, retryAfter: number | null = null, range: Classified["suggestedRange"] = null): Classified {
  return { kind, retryAfterMs: retryAfter, suggestedRange: range };
}

function byHttpStatus(status: number, retryAfter: number | null): Classified | null {
  if (status === 429) return classified("rate", retryAfter);
  if (status === 401 || status === 402 || status === 403) return classified("refused", retryAfter);
  // QuickNode answers its range cap as 413; a 413 without a JSON-RPC body is the batch or body size.
  if (status === 413) return classified("range");
  if (status === 408 || status >= 500) return classified("transient", retryAfter);
  return null;
}

/** The kind of a JSON-RPC client error (json-rpc/errors.ts); anything else is fatal. */
export function classifyRpcError(err: unknown): Classified {
  if (err instanceof ResponseTooLargeError) return classified("range");
  if (err instanceof TimeoutError || err instanceof ConnectionError || err instanceof MissingBatchResponseError || err instanceof InvalidResponseError) return classified("transient");
  if (err instanceof HttpRequestError) {
    const wait = retryAfterMs(err.retryAfter, err.body);
    // A 2xx that is not JSON: a truncated or empty body.
    if (err.status >= 200 && err.status < 300) return classified("transient");
    return byHttpStatus(err.status, wait) ?? classified(RATE_LIMITED.test(err.body) ? "rate" : "fatal", wait);
  }
  if (err instanceof RpcResponseError) {
    const text = textOf(err);
    const wait = retryAfterMs(err.retryAfter, text);
    // The message decides before the code: -32005 is Infura's result cap as well as its rate limit.
    if (RANGE_TOO_LARGE.test(text)) return classified("range", null, suggestedRange(text));
    if (REFUSED.test(text)) return classified("refused", wait);
    if (RATE_LIMITED.test(text) || err.code === 429 || err.httpStatus === 429) return classified("rate", wait);
    if (BEHIND.test(text)) return classified("behind", wait);
    if (err.httpStatus !== null) {
      const byStatus = byHttpStatus(err.httpStatus, wait);
      if (byStatus) return byStatus;
    }
    // EIP-1474's "limit exceeded" without words we know: a rate limit is the safe reading (it never shrinks a range).
    if (err.code === -32005) return classified("rate", wait);
    // -32603 internal error, -32000 server error with words we do not know: the node may do better next time.
    if (err.code === -32603) return classified("transient", wait);
    return classified("fatal");
  }
  return classified("fatal");
}
