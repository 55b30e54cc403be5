// Whether an eth_call was answered from the chain cache: the node's RPC clients are layered (the chain
// cache above the chain's own client), and neither layer alone can tell. The node marks both
// (`markedLayer`); `answeredFromCache` runs a request and says whether it went into the cache layer and
// never reached the chain's. An async context follows the request through the layers, whatever other
// deployment's requests run meanwhile.
import { AsyncLocalStorage } from "node:async_hooks";

interface Mark {
  askedCache: boolean;
  reachedChain: boolean;
}

const asking = new AsyncLocalStorage<Mark>();
/** The deployment whose indexing is running (the eth_rpc metrics' `deployment` label). */
const working = new AsyncLocalStorage<string>();

/** Runs `work` (a deployment's indexing loop) so that every request it makes names the deployment. */
export function asDeployment<T>(id: string, work: () => T): T {
  return working.run(id, work);
}

/** The deployment whose work is running now, or null (the status API's requests, say). */
export function currentDeployment(): string | null {
  return working.getStore() ?? null;
}

/** Runs `request`; `cached` is true when a cache layer answered it without asking the chain. */
export async function answeredFromCache<T>(request: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
  const mark: Mark = { askedCache: false, reachedChain: false };
  const value = await asking.run(mark, request);
  return { value, cached: mark.askedCache && !mark.reachedChain };
}

interface Requester {
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
  batch<T = unknown>(calls: { method: string; params: unknown[] }[]): Promise<T[]>;
}

/**
 * The client, the same but noting each request in the request's mark: `cache` for the cache's own
 * client (above it), `chain` for the client that sends requests to the chain (below it).
 */
export function markedLayer<C extends Requester>(client: C, layer: "cache" | "chain"): C {
  const note = (): void => {
    const mark = asking.getStore();
    if (!mark) return;
    if (layer === "cache") mark.askedCache = true;
    else mark.reachedChain = true;
  };
  const marked = Object.create(client) as C;
  marked.request = ((method: string, params: unknown[]) => (note(), client.request(method, params))) as C["request"];
  marked.batch = ((calls: { method: string; params: unknown[] }[]) => (note(), client.batch(calls))) as C["batch"];
  return marked;
}
