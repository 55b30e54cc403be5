// The node's chains: `--ethereum-rpc` entries as graph-node writes them (`<network>:[<capabilities>:]<url>`),
// or a bare URL that serves every network the node is asked for. One RPC client per network.
import { ChainError } from "./errors.js";
import { createRpcClient, type RpcClient } from "./rpcClient.js";

export interface ChainSet {
  /** The client for a manifest's network, or null when no RPC serves it. */
  rpcFor(network: string): RpcClient | null;
  /** Networks with an RPC of their own (a bare URL serves any other). */
  readonly networks: string[];
  /** True when a bare URL serves every network. */
  readonly servesAny: boolean;
  /** `network: url` lines for the start-up log, credentials masked by the caller. */
  describe(): { network: string; url: string }[];
}

const URL_START = /^(https?|wss?):\/\//i;

/** `mainnet:http://...`, `mainnet:archive,traces:http://...` or a bare `http://...`. */
export function parseRpcEntry(entry: string): { network: string | null; url: string } {
  const text = entry.trim();
  if (URL_START.test(text)) return { network: null, url: text };
  const colon = text.indexOf(":");
  if (colon <= 0) throw new ChainError(`--ethereum-rpc \`${entry}\` is neither a URL nor <network>:<url>`);
  const network = text.slice(0, colon);
  let rest = text.slice(colon + 1);
  // graph-node's optional capabilities (`archive`, `traces`, comma separated) come before the URL.
  if (!URL_START.test(rest)) {
    const next = rest.indexOf(":");
    if (next < 0 || !URL_START.test(rest.slice(next + 1))) throw new ChainError(`--ethereum-rpc \`${entry}\`: expected <network>:[<capabilities>:]<http(s) or ws(s) URL>`);
    rest = rest.slice(next + 1);
  }
  return { network, url: rest };
}

/** `wrap` decorates each network's client (the chain cache). */
export function createChainSet(entries: string | string[], clientOptions: { timeoutMs?: number } = {}, wrap?: (rpc: RpcClient) => RpcClient): ChainSet {
  const list = (Array.isArray(entries) ? entries : [entries]).map(parseRpcEntry);
  if (list.length === 0) throw new ChainError("no Ethereum RPC given");
  const byNetwork = new Map<string, RpcClient>();
  let fallback: RpcClient | null = null;
  const lines: { network: string; url: string }[] = [];
  const make = (url: string): RpcClient => {
    const rpc = createRpcClient({ url, ...clientOptions });
    return wrap ? wrap(rpc) : rpc;
  };
  for (const { network, url } of list) {
    if (network === null) {
      if (fallback) throw new ChainError("--ethereum-rpc: more than one URL without a network name");
      fallback = make(url);
      lines.push({ network: "*", url });
    } else {
      if (byNetwork.has(network)) throw new ChainError(`--ethereum-rpc: network ${network} is given twice`);
      byNetwork.set(network, make(url));
      lines.push({ network, url });
    }
  }
  return {
    rpcFor: (network) => byNetwork.get(network) ?? fallback,
    networks: [...byNetwork.keys()],
    servesAny: fallback !== null,
    describe: () => lines,
  };
}
