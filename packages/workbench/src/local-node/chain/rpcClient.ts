// The indexer's view of an Ethereum JSON-RPC node, over the project's one JSON-RPC client
// (clients/json-rpc): single calls, and batches split to the node's size with results in call order.
// The client's errors pass through as they are (RpcResponseError with the node's code, TimeoutError,
// HttpRequestError, ConnectionError): the log fetcher reasons about their kinds.
import { createJsonRpcClient } from "../../json-rpc/index.js";

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
  /** The largest answer read (the JSON-RPC client's default unless set); eth_getLogs asks for fewer blocks past it. */
  maxResponseBytes?: number;
}

export interface RpcClient {
  readonly displayUrl: string;
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
  /** Sends the calls as JSON-RPC batches; results in call order; the first error rejects. */
  batch<T = unknown>(calls: RpcCall[]): Promise<T[]>;
  /** Told by the indexer when it found a reorg: a client that keeps chain data drops it. */
  chainMoved?(): Promise<void>;
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const client = createJsonRpcClient({
    url: options.url,
    timeoutMs: options.timeoutMs ?? 30_000,
    // Ethereum quantities are hex strings: no integer in an answer needs to stay exact.
    exactIntegers: false,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  });
  const maxBatch = options.maxBatchSize ?? 100;
  const displayUrl = client.url;

  return {
    displayUrl,
    async request<T>(method: string, params: unknown[]): Promise<T> {
      return ((await client.request<T>(method, params)) ?? null) as T;
    },
    async batch<T>(calls: RpcCall[]): Promise<T[]> {
      const out: T[] = [];
      for (let i = 0; i < calls.length; i += maxBatch) {
        const chunk = calls.slice(i, i + maxBatch);
        for (const entry of await client.batch<T>(chunk)) {
          if (!entry.ok) throw entry.error;
          out.push((entry.result ?? null) as T);
        }
      }
      return out;
    },
  };
}
