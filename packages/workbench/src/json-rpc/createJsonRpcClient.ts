import {
  ConnectionError,
  HttpRequestError,
  InvalidResponseError,
  MissingBatchResponseError,
  ResponseTooLargeError,
  RpcClientError,
  TimeoutError,
  rpcResponseErrorFrom,
} from "./errors.js";
import { maskUrl } from "../lib/redact.js";
import { parseJson } from "./parseJson.js";
import { AnswerTooLarge, postOverHttp, postWithFetch, type TextAnswer } from "./postText.js";

export type RpcParams = readonly unknown[] | Readonly<Record<string, unknown>>;

export type RpcCall = { method: string; params?: RpcParams };

/** One answer of a batch, in request order. */
export type BatchEntry<T = unknown> = { ok: true; result: T } | { ok: false; error: RpcClientError };

export type RequestOptions = {
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
};

export type JsonRpcClientOptions = {
  /** The endpoint; it may contain an access key and is only ever shown masked. */
  url: string;
  /** Milliseconds before a request is abandoned; 30 s unless set. */
  timeoutMs?: number;
  headers?: Readonly<Record<string, string>>;
  /** Injectable transport (tests, proxies); node:http(s) otherwise (postText.ts). */
  fetch?: typeof fetch;
  /**
   * Decimal integers above 2^53 come back as bigint (the default: Solana's u64 amounts). An Ethereum
   * node writes every quantity as a hex string, so its client turns this off: the scan for long numbers
   * read every byte of each answer, about 30% of parsing a large getLogs answer.
   */
  exactIntegers?: boolean;
  /**
   * The largest answer read, in bytes; a longer one fails with ResponseTooLargeError and is not kept.
   * 256 MiB unless set: a node that streams without end cannot fill this process's memory.
   */
  maxResponseBytes?: number;
};

const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export type JsonRpcClient = {
  /** The endpoint with its access key masked, safe to print. */
  readonly url: string;
  request<T = unknown>(method: string, params?: RpcParams, options?: RequestOptions): Promise<T>;
  /** Sends every call in one POST. Throws only when the batch as a whole fails; per-call errors come back as entries. */
  batch<T = unknown>(calls: readonly RpcCall[], options?: RequestOptions): Promise<BatchEntry<T>[]>;
};

type RpcResponse = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

function isRpcError(value: unknown): value is { code: number; message: string; data?: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === "number" && typeof v.message === "string";
}

function isRpcResponse(value: unknown): value is RpcResponse {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return "result" in v || isRpcError(v.error);
}

export function createJsonRpcClient(options: JsonRpcClientOptions): JsonRpcClient {
  const send = options.fetch ? postWithFetch(options.fetch) : postOverHttp;
  const maskedUrl = maskUrl(options.url);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // Ids only need to be unique within one client.
  let nextId = 1;

  async function post(body: unknown, requestOptions: RequestOptions): Promise<TextAnswer> {
    const timeoutMs = requestOptions.timeoutMs ?? defaultTimeout;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = requestOptions.signal ? AbortSignal.any([timeout, requestOptions.signal]) : timeout;
    try {
      return await send(options.url, JSON.stringify(body), { "content-type": "application/json", ...options.headers }, signal, maxResponseBytes);
    } catch (cause) {
      if (cause instanceof AnswerTooLarge) throw new ResponseTooLargeError({ url: maskedUrl, limitBytes: cause.limitBytes });
      if (timeout.aborted) throw new TimeoutError({ url: maskedUrl, timeoutMs });
      if (requestOptions.signal?.aborted) throw requestOptions.signal.reason;
      // The cause is kept for debugging; connect errors name host and port, never the path (or its key).
      throw new ConnectionError({ url: maskedUrl, cause });
    }
  }

  function parseBody({ status, text, retryAfter }: TextAnswer): unknown {
    let parsed: unknown;
    try {
      parsed = options.exactIntegers === false ? JSON.parse(text) : parseJson(text);
    } catch (cause) {
      throw new HttpRequestError({ status, url: maskedUrl, body: text, cause, retryAfter });
    }
    // A JSON-RPC error body wins over the HTTP status (nodes answer rate limits as 429 + -32005); the
    // status and Retry-After go with it.
    if (status < 200 || status >= 300) {
      if (isRpcResponse(parsed) && parsed.error) {
        const error = rpcResponseErrorFrom(parsed.error);
        error.httpStatus = status;
        error.retryAfter = retryAfter ?? null;
        throw error;
      }
      throw new HttpRequestError({ status, url: maskedUrl, body: text, retryAfter });
    }
    return parsed;
  }

  return {
    url: maskedUrl,

    async request<T>(method: string, params: RpcParams = [], requestOptions: RequestOptions = {}): Promise<T> {
      const id = nextId++;
      const answer = await post({ jsonrpc: "2.0", id, method, params }, requestOptions);
      const body = parseBody(answer);
      const text = answer.text;
      if (!isRpcResponse(body)) {
        throw new InvalidResponseError("The endpoint did not answer with a JSON-RPC response", { detail: text.slice(0, 200) });
      }
      if (body.error) throw rpcResponseErrorFrom(body.error);
      return body.result as T;
    },

    async batch<T>(calls: readonly RpcCall[], requestOptions: RequestOptions = {}): Promise<BatchEntry<T>[]> {
      if (calls.length === 0) return [];
      const ids = calls.map(() => nextId++);
      const payload = calls.map((call, i) => ({ jsonrpc: "2.0", id: ids[i], method: call.method, params: call.params ?? [] }));
      const answer = await post(payload, requestOptions);
      const body = parseBody(answer);
      const text = answer.text;
      if (!Array.isArray(body)) {
        // A node without batch support answers with one error object for the whole array.
        if (isRpcResponse(body) && body.error) throw rpcResponseErrorFrom(body.error);
        throw new InvalidResponseError("The endpoint did not answer the batch with an array", { detail: text.slice(0, 200) });
      }
      const byId = new Map<unknown, RpcResponse>();
      for (const item of body) if (isRpcResponse(item)) byId.set(item.id, item);
      return ids.map((id): BatchEntry<T> => {
        const item = byId.get(id);
        if (!item) return { ok: false, error: new MissingBatchResponseError(id) };
        if (item.error) return { ok: false, error: rpcResponseErrorFrom(item.error) };
        return { ok: true, result: item.result as T };
      });
    },
  };
}
