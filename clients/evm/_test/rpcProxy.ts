// A loopback JSON-RPC proxy for tests and benchmarks: adds latency per HTTP request, fails chosen
// eth_getStorageAt slots (single or inside batches), rejects or truncates batches, and counts traffic.
import { createServer, type Server } from "node:http";
import { listen, readText } from "subgraph-workbench/lib/http";

type Call = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };

export type RpcProxyOptions = {
  target: string;
  /** Added before forwarding every HTTP request. */
  latencyMs?: number;
  /** eth_getStorageAt reads of these slots (hex as sent) answer -32000 "injected failure". */
  failSlots?: ReadonlySet<string>;
  /** Every array body answers one -32600 error, as a node without batch support does. */
  rejectBatches?: boolean;
  /** Arrays longer than this answer HTTP 413. */
  maxBatchSize?: number;
  /** Leaves out the answer to every n-th call of a batch (partial answers). */
  dropEvery?: number;
  /** Answers -32602 to eth_getStorageAt with an EIP-1898 block object, as a node without it does. */
  refuseBlockObjects?: boolean;
};

export type RpcProxy = {
  url: string;
  /** HTTP requests received (round trips). */
  readonly httpRequests: number;
  /** JSON-RPC calls received, batch items counted one by one. */
  readonly calls: number;
  reset(): void;
  close(): Promise<void>;
};

export const INJECTED_FAILURE = "injected failure";

export async function startRpcProxy(options: RpcProxyOptions): Promise<RpcProxy> {
  let httpRequests = 0;
  let calls = 0;

  const failure = (call: Call) => {
    if (call.method !== "eth_getStorageAt") return undefined;
    if (options.refuseBlockObjects && typeof call.params?.[2] === "object") {
      return { jsonrpc: "2.0", id: call.id, error: { code: -32602, message: "invalid block number or tag" } };
    }
    return typeof call.params?.[1] === "string" && options.failSlots?.has(call.params[1])
      ? { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: INJECTED_FAILURE } }
      : undefined;
  };

  async function forward(body: unknown): Promise<unknown> {
    const res = await fetch(options.target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.json();
  }

  async function handle(body: unknown): Promise<{ status: number; reply: unknown }> {
    if (!Array.isArray(body)) {
      calls++;
      return { status: 200, reply: failure(body as Call) ?? (await forward(body)) };
    }
    calls += body.length;
    if (options.rejectBatches) return { status: 200, reply: { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch requests are not supported" } } };
    if (options.maxBatchSize !== undefined && body.length > options.maxBatchSize) return { status: 413, reply: { message: "batch too large" } };
    const injected = (body as Call[]).map(failure);
    const passed = (body as Call[]).filter((_, i) => !injected[i]);
    const upstream = passed.length > 0 ? ((await forward(passed)) as Call[]) : [];
    const byId = new Map(upstream.map((r) => [r.id, r]));
    const replies = (body as Call[]).map((call, i) => injected[i] ?? byId.get(call.id));
    const kept = options.dropEvery ? replies.filter((_, i) => (i + 1) % options.dropEvery! !== 0) : replies;
    return { status: 200, reply: kept };
  }

  const server: Server = createServer((req, res) => {
    void readText(req).then(async (text) => {
      httpRequests++;
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      try {
        const { status, reply } = await handle(JSON.parse(text));
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(reply));
      } catch {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end("upstream failed");
      }
    });
  });
  const running = await listen(server);
  return {
    url: running.url,
    get httpRequests() {
      return httpRequests;
    },
    get calls() {
      return calls;
    },
    reset() {
      httpRequests = 0;
      calls = 0;
    },
    close: running.close,
  };
}
