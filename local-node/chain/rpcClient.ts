// The indexer's view of an Ethereum JSON-RPC node, over the project's one JSON-RPC client
// (clients/json-rpc): single calls, batches split to the node's size, results in call order, and
// the chain errors the log fetcher reasons about (response codes vs transport failures).
import { RpcResponseError as ClientRpcResponseError, TimeoutError, createJsonRpcClient, type RpcClientError } from "../../clients/json-rpc/index.js";
import { RpcResponseError, RpcTransportError } from "./errors.js";

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

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const client = createJsonRpcClient({
    url: options.url,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const maxBatch = options.maxBatchSize ?? 100;
  const displayUrl = client.url;

  function toChainError(what: string, error: unknown): Error {
    if (error instanceof ClientRpcResponseError) return new RpcResponseError(what, error.code, error.shortMessage, error.data);
    const e = error as RpcClientError;
    return new RpcTransportError(`${what}: ${e.shortMessage ?? e.message} (${displayUrl})`, {
      cause: error,
      timedOut: error instanceof TimeoutError,
      details: { url: displayUrl },
    });
  }

  return {
    displayUrl,
    async request<T>(method: string, params: unknown[]): Promise<T> {
      try {
        return ((await client.request<T>(method, params)) ?? null) as T;
      } catch (error) {
        throw toChainError(method, error);
      }
    },
    async batch<T>(calls: RpcCall[]): Promise<T[]> {
      const out: T[] = [];
      for (let i = 0; i < calls.length; i += maxBatch) {
        const chunk = calls.slice(i, i + maxBatch);
        let entries;
        try {
          entries = await client.batch<T>(chunk);
        } catch (error) {
          throw toChainError(`batch of ${chunk.length} (${chunk[0]?.method ?? ""})`, error);
        }
        entries.forEach((entry, j) => {
          if (!entry.ok) throw toChainError(chunk[j]?.method ?? "batch", entry.error);
          out.push((entry.result ?? null) as T);
        });
      }
      return out;
    },
  };
}
