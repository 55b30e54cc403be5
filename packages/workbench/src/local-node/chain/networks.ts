// The node's chains: `--ethereum-rpc` entries as graph-node writes them (`<network>:[<capabilities>:]<url>`,
// repeated for several providers of one network), a bare URL that serves every network the node is asked
// for, and the networks of a graph-node config.toml. One provider pool per network (local-node/providers).
import { ChainError } from "./errors.js";
import type { RpcClient } from "./rpcClient.js";
import {
  DEFAULT_FEATURES,
  createProviderPool,
  type NetworkProviders,
  type ProviderPool,
  type ProviderPoolOptions,
  type ProviderSpec,
  type ProviderStatus,
} from "../providers/index.js";

export interface ChainSet {
  /** The client for a manifest's network, or null when no RPC serves it. */
  rpcFor(network: string): RpcClient | null;
  /** Networks with an RPC of their own (a bare URL serves any other). */
  readonly networks: string[];
  /** True when a bare URL serves every network. */
  readonly servesAny: boolean;
  /** `network: url` lines for the start-up log, credentials masked (one per provider). */
  describe(): { network: string; url: string }[];
  /** Each network's providers: served, failed, skipped and why. */
  providers(): { network: string; providers: ProviderStatus[] }[];
}

const URL_START = /^(https?|wss?):\/\//i;

/** `mainnet:http://...`, `mainnet:archive,traces:http://...` or a bare `http://...`. */
export function parseRpcEntry(entry: string): { network: string | null; url: string; features: string[] } {
  const text = entry.trim();
  if (URL_START.test(text)) return { network: null, url: text, features: DEFAULT_FEATURES };
  const colon = text.indexOf(":");
  if (colon <= 0) throw new ChainError(`--ethereum-rpc \`${entry}\` is neither a URL nor <network>:<url>`);
  const network = text.slice(0, colon);
  let rest = text.slice(colon + 1);
  let features = DEFAULT_FEATURES;
  // graph-node's optional capabilities (`archive`, `traces`, comma separated) come before the URL.
  if (!URL_START.test(rest)) {
    const next = rest.indexOf(":");
    if (next < 0 || !URL_START.test(rest.slice(next + 1))) throw new ChainError(`--ethereum-rpc \`${entry}\`: expected <network>:[<capabilities>:]<http(s) or ws(s) URL>`);
    features = rest.slice(0, next).split(",").filter(Boolean);
    rest = rest.slice(next + 1);
  }
  return { network, url: rest, features };
}

export interface ChainSetOptions {
  timeoutMs?: number;
  /** Networks of a graph-node config file, beside (or instead of) the entries. */
  configured?: NetworkProviders[];
  /** Per provider: requests in flight and requests per second (graph-node's file has no such field). */
  maxConcurrent?: number;
  requestsPerSecond?: number;
  pool?: Omit<ProviderPoolOptions, "network" | "providers">;
}

/** `wrap` decorates each network's client (the chain cache). */
export function createChainSet(entries: string | string[], options: ChainSetOptions = {}, wrap?: (rpc: RpcClient) => RpcClient): ChainSet {
  const list = (Array.isArray(entries) ? entries : [entries]).filter((e) => e.trim() !== "").map(parseRpcEntry);
  if (list.length === 0 && (options.configured ?? []).length === 0) throw new ChainError("no Ethereum RPC given");
  const limits = {
    ...(options.maxConcurrent ? { maxConcurrent: options.maxConcurrent } : {}),
    ...(options.requestsPerSecond ? { requestsPerSecond: options.requestsPerSecond } : {}),
  };
  const specs = new Map<string, { providers: ProviderSpec[]; timeoutMs?: number }>();
  let fallbackUrl: ProviderSpec | null = null;
  list.forEach(({ network, url, features }, nr) => {
    if (network === null) {
      if (fallbackUrl) throw new ChainError("--ethereum-rpc: more than one URL without a network name");
      fallbackUrl = { label: `any-rpc-${nr}`, url, features, ...limits };
      return;
    }
    const entry = specs.get(network) ?? { providers: [] };
    // graph-node's label for a command-line provider: <network>-rpc-<position>.
    entry.providers.push({ label: `${network}-rpc-${nr}`, url, features, ...limits });
    specs.set(network, entry);
  });
  for (const n of options.configured ?? []) {
    const entry = specs.get(n.network) ?? { providers: [] };
    for (const p of n.providers) {
      if (entry.providers.some((q) => q.label === p.label)) throw new ChainError(`network ${n.network}: provider label ${p.label} is given twice`);
      entry.providers.push({ ...limits, ...p });
    }
    if (n.timeoutMs) entry.timeoutMs = n.timeoutMs;
    specs.set(n.network, entry);
  }
  const pools = new Map<string, ProviderPool>();
  const clients = new Map<string, RpcClient>();
  const make = (network: string, providers: ProviderSpec[], timeoutMs: number | undefined): RpcClient => {
    const pool = createProviderPool({ ...options.pool, network, providers, ...((timeoutMs ?? options.timeoutMs) ? { timeoutMs: timeoutMs ?? options.timeoutMs } : {}) });
    pools.set(network, pool);
    return wrap ? wrap(pool) : pool;
  };
  for (const [network, { providers, timeoutMs }] of specs) clients.set(network, make(network, providers, timeoutMs));
  const spec: ProviderSpec | null = fallbackUrl;
  const fallback = spec ? make("*", [spec], undefined) : null;
  const lines: { network: string; url: string }[] = [];
  for (const [network, pool] of pools) {
    const several = pool.providers().length > 1;
    for (const p of pool.providers()) lines.push({ network: several ? `${network} (${p.label})` : network, url: p.url });
  }
  return {
    rpcFor: (network) => clients.get(network) ?? fallback,
    networks: [...clients.keys()],
    servesAny: fallback !== null,
    describe: () => lines,
    providers: () => [...pools].map(([network, pool]) => ({ network, providers: pool.providers() })),
  };
}
