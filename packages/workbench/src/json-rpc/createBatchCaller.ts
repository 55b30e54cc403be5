import type { BatchEntry, JsonRpcClient, RequestOptions, RpcCall } from "./createJsonRpcClient.js";
import { ConnectionError, TimeoutError, type RpcClientError } from "./errors.js";

export type BatchCallerOptions = {
  /** Calls per POST at most; halved each time the node rejects a batch. 500 unless set. */
  maxBatchSize?: number;
  /** Single requests in flight at once when batching is off or calls are retried. 16 unless set. */
  concurrency?: number;
  request?: RequestOptions;
};

export type BatchCaller = {
  /** Answers for every call, in order. Every answer is what a single request for that call would give. */
  call<T = unknown>(calls: readonly RpcCall[]): Promise<BatchEntry<T>[]>;
  /** The batch size currently in use (0 once batching was given up). */
  readonly batchSize: number;
};

/**
 * Sends calls as JSON-RPC batches and falls back without changing answers: a rejected batch is split in
 * halves (down to single requests), and a call the batch left unanswered or answered with an error is
 * asked again on its own, so batch-only limits never turn into results a one-by-one client would not see.
 * State (the accepted batch size) lives in the caller, one per operation.
 */
export function createBatchCaller(client: JsonRpcClient, options: BatchCallerOptions = {}): BatchCaller {
  let limit = Math.max(1, options.maxBatchSize ?? 500);
  const concurrency = Math.max(1, options.concurrency ?? 16);

  async function single<T>(call: RpcCall): Promise<BatchEntry<T>> {
    try {
      return { ok: true, result: await client.request<T>(call.method, call.params, options.request) };
    } catch (error) {
      return { ok: false, error: error as RpcClientError };
    }
  }

  async function each<T>(calls: readonly RpcCall[]): Promise<BatchEntry<T>[]> {
    const out = new Array<BatchEntry<T>>(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const i = next++;
        out[i] = await single<T>(calls[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
    return out;
  }

  async function call<T>(calls: readonly RpcCall[]): Promise<BatchEntry<T>[]> {
    if (calls.length === 0) return [];
    if (limit < 2 || calls.length === 1) return each<T>(calls);
    if (calls.length > limit) {
      const chunks: RpcCall[][] = [];
      for (let i = 0; i < calls.length; i += limit) chunks.push(calls.slice(i, i + limit));
      return (await Promise.all(chunks.map((chunk) => call<T>(chunk)))).flat();
    }
    let entries: BatchEntry<T>[];
    try {
      entries = await client.batch<T>(calls, options.request);
    } catch (error) {
      // Nothing answers, or the node hangs: single requests would fail the same way, only slower.
      if (error instanceof ConnectionError || error instanceof TimeoutError) return calls.map(() => ({ ok: false, error }));
      // Rejected as a whole (no batch support, too large): smaller batches.
      limit = Math.min(limit, Math.floor(calls.length / 2));
      return call<T>(calls);
    }
    const failed = entries.flatMap((entry, i) => (entry.ok ? [] : [i]));
    if (failed.length > 0) {
      const retried = await each<T>(failed.map((i) => calls[i]!));
      failed.forEach((index, k) => (entries[index] = retried[k]!));
    }
    return entries;
  }

  return {
    call,
    get batchSize() {
      return limit < 2 ? 0 : limit;
    },
  };
}
