// A small Ethereum JSON-RPC client over fetch: single calls and batches (one POST holding an array),
// a per-request timeout, and errors that never show the URL's secrets.
import { RpcResponseError, RpcTransportError, maskUrl } from "./errors.js";

export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface RpcClientOptions {
  url: string;
  /** Milliseconds before a request is abandoned (default 30 s). */
  timeoutMs?: number;
  /** Largest number of calls sent in one batch POST (default 100); bigger batches are split. */
  maxBatchSize?: number;
  fetch?: typeof fetch;
}

export interface RpcClient {
  readonly displayUrl: string;
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
  /** Sends the calls as JSON-RPC batches; results in call order; the first error rejects. */
  batch<T = unknown>(calls: RpcCall[]): Promise<T[]>;
}

interface RpcReply {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBatch = options.maxBatchSize ?? 100;
  const displayUrl = maskUrl(options.url);
  let nextId = 1;

  async function post(body: unknown, what: string): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(options.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      const timedOut = cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
      throw new RpcTransportError(`${what}: ${timedOut ? "timed out" : "request failed"} (${displayUrl})`, {
        cause,
        timedOut,
        details: { url: displayUrl },
      });
    }
    const text = await res.text();
    if (!res.ok) {
      throw new RpcTransportError(`${what}: HTTP ${res.status} (${displayUrl})`, {
        details: { url: displayUrl, status: res.status, body: text.slice(0, 300) },
      });
    }
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new RpcTransportError(`${what}: response is not JSON (${displayUrl})`, { cause, details: { body: text.slice(0, 300) } });
    }
  }

  function unwrap(method: string, reply: RpcReply | undefined): unknown {
    if (!reply) throw new RpcTransportError(`${method}: missing response in batch (${displayUrl})`);
    if (reply.error) throw new RpcResponseError(method, reply.error.code, reply.error.message, reply.error.data);
    return reply.result ?? null;
  }

  async function sendBatch(calls: RpcCall[]): Promise<unknown[]> {
    const first = nextId;
    nextId += calls.length;
    const body = calls.map((c, i) => ({ jsonrpc: "2.0", id: first + i, method: c.method, params: c.params }));
    const raw = await post(body, `batch of ${calls.length} (${calls[0]?.method ?? ""})`);
    if (!Array.isArray(raw)) {
      // Some nodes answer a whole batch with one error object (e.g. batch too large).
      const single = raw as RpcReply;
      throw new RpcResponseError(calls[0]?.method ?? "batch", single.error?.code ?? -32603, single.error?.message ?? "batch rejected");
    }
    const byId = new Map<number, RpcReply>();
    for (const r of raw as RpcReply[]) if (typeof r.id === "number") byId.set(r.id, r);
    return calls.map((c, i) => unwrap(c.method, byId.get(first + i)));
  }

  return {
    displayUrl,
    async request<T>(method: string, params: unknown[]): Promise<T> {
      const id = nextId++;
      const reply = (await post({ jsonrpc: "2.0", id, method, params }, method)) as RpcReply;
      return unwrap(method, reply) as T;
    },
    async batch<T>(calls: RpcCall[]): Promise<T[]> {
      const out: unknown[] = [];
      for (let i = 0; i < calls.length; i += maxBatch) out.push(...(await sendBatch(calls.slice(i, i + maxBatch))));
      return out as T[];
    },
  };
}
