// The RPC client boundary's timing for the eth_rpc metrics: each request and batch, by method (a batch
// by its calls' methods, each timed as the whole batch, as graph-node times the request that carried
// it) and provider, and by the deployment it was made for (indexer's requestOrigin).
import type { NodeMetrics } from "./nodeMetrics.js";

interface Requester {
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
  batch<T = unknown>(calls: { method: string; params: unknown[] }[]): Promise<T[]>;
}

export interface TimedRpcOptions {
  metrics: NodeMetrics;
  /** graph-node's provider label (the network's one provider's, or the network's name for several). */
  provider: string;
  /** The deployment whose work is running now, or null. */
  deployment(): string | null;
}

export function timedRpc<C extends Requester>(client: C, options: TimedRpcOptions): C {
  const { metrics, provider } = options;
  const timed = Object.create(client) as C;
  async function time<T>(methods: string[], run: () => Promise<T>): Promise<T> {
    const deployment = options.deployment();
    const started = performance.now();
    let failed = true;
    try {
      const value = await run();
      failed = false;
      return value;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const method of new Set(methods)) metrics.observeRpc({ deployment, method, provider, seconds, failed });
    }
  }
  timed.request = ((method: string, params: unknown[]) => time([method], () => client.request(method, params))) as C["request"];
  timed.batch = ((calls: { method: string; params: unknown[] }[]) => time(calls.map((c) => c.method), () => client.batch(calls))) as C["batch"];
  return timed;
}
