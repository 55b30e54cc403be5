// Raw chain data kept in the node's store (on disk with PGlite's data folder or a Postgres server), so that
// a re-index (each save of `npm run dev` deploys a new version that indexes from its start block) reads the
// chain again only to check that what it kept is still canonical.
// Kept by chain id and block hash:
// - eth_getLogs over a block range, with the hash of the range's last block. Before a kept range is used,
//   that one block is asked for again: the same hash means the same history up to it (each hash covers
//   its parent's), so the range's logs stand. A different hash is a reorg: the chain's kept data goes.
// - blocks (with or without transactions) by hash; asked for by number, a kept block answers only when
//   the number's hash is known for this chain now (from a range just checked or a block just fetched).
// - eth_call results by block hash, target and data, under the same rule; failed calls are not kept.
// - eth_getLogs of one block named by hash (EIP-234): kept as they are, a hash never changes.
// Everything else goes to the chain. The indexer tells the client of a reorg it found (chainMoved).
import type { RpcCall, RpcClient } from "./rpcClient.js";

/** Where kept answers live (the node's store): JSON text by chain id and key. */
export interface ChainCacheStorage {
  read(chainId: number, keys: string[]): Promise<Map<string, string>>;
  write(chainId: number, entries: [key: string, value: string][]): Promise<void>;
  /** Forgets everything kept for the chain (a reorg). */
  clear(chainId: number): Promise<void>;
}

export interface ChainCacheStats {
  /** Reorgs seen (kept data dropped). */
  reorgs: number;
}

export interface CachedRpcClient extends RpcClient {
  readonly stats: ChainCacheStats;
  /** Resolves once the answers being kept are in the store. */
  settled(): Promise<void>;
}

type Raw = Record<string, unknown>;
type LogsEntry = { end: string; logs: Raw[] };

const HEX_NUMBER = /^0x[0-9a-f]+$/i;
/** The methods whose answers may be kept (keyOf's cases); any other call goes straight to the chain. */
const KEPT_METHODS = new Set(["eth_getBlockByHash", "eth_getBlockByNumber", "eth_call", "eth_getLogs"]);

function isObject(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The filter's address and topics as one key part (order kept: nodes answer by them as given). */
function filterKey(params: Raw): string {
  return JSON.stringify([params.address ?? null, params.topics ?? null]).toLowerCase();
}

function hashOf(block: unknown): string | null {
  return isObject(block) && typeof block.hash === "string" ? block.hash.toLowerCase() : null;
}

export function withChainCache(inner: RpcClient, storage: ChainCacheStorage, log: (message: string) => void = () => {}): CachedRpcClient {
  const stats: ChainCacheStats = { reorgs: 0 };
  // Block numbers whose canonical hash this process has just seen: a kept block or call answers for them.
  const known = new Map<number, string>();
  let chainId: Promise<number> | null = null;
  const chain = (): Promise<number> => {
    chainId ??= inner.request<string>("eth_chainId", []).then((id) => {
      if (typeof id !== "string" || !HEX_NUMBER.test(id)) throw new Error(`eth_chainId answered ${JSON.stringify(id)}`);
      return Number.parseInt(id, 16);
    });
    chainId.catch(() => (chainId = null));
    return chainId;
  };

  // Writes are not waited for: the indexer goes on while the store takes them (a lost write is a miss).
  const writing = new Set<Promise<void>>();
  function keep(id: number, writes: [string, string][]): void {
    if (writes.length === 0) return;
    const done: Promise<void> = storage
      .write(id, writes)
      .catch((err: unknown) => log(`chain cache: could not keep ${writes.length} answers (${err instanceof Error ? err.message : String(err)})`))
      .finally(() => writing.delete(done));
    writing.add(done);
  }

  async function reorged(why: string): Promise<void> {
    stats.reorgs++;
    known.clear();
    await Promise.all(writing);
    await storage.clear(await chain());
    log(`chain cache: ${why}; the chain's kept data is dropped`);
  }

  /** A block seen by number: its hash is the number's now; another hash than before is a reorg. */
  async function sawBlock(number: number, block: unknown, full: boolean, writes: [string, string][]): Promise<void> {
    const hash = hashOf(block);
    if (hash === null) return;
    const before = known.get(number);
    if (before !== undefined && before !== hash) await reorged(`block ${number} is now ${hash.slice(0, 10)}, was ${before.slice(0, 10)}`);
    known.set(number, hash);
    writes.push([`block:${hash}:${full ? 1 : 0}`, JSON.stringify(block)]);
  }

  /**
   * What a range's logs, just checked or fetched, say of its blocks' hashes replaces what was known of
   * them: a block of the range seen before may since have been replaced by a reorg the range shows.
   */
  function knowRange(from: number, to: number, logs: Raw[]): void {
    for (const n of known.keys()) if (n >= from && n <= to) known.delete(n);
    for (const l of logs) known.set(Number.parseInt(l.blockNumber as string, 16), String(l.blockHash).toLowerCase());
  }

  /** The key of a call whose answer can be kept (a method of KEPT_METHODS), or null (its block's hash is not known). */
  function keyOf(call: RpcCall): string | null {
    const [a, b] = call.params;
    switch (call.method) {
      case "eth_getBlockByHash":
        return typeof a === "string" ? `block:${a.toLowerCase()}:${b ? 1 : 0}` : null;
      case "eth_getBlockByNumber": {
        const hash = typeof a === "string" && HEX_NUMBER.test(a) ? known.get(Number.parseInt(a, 16)) : undefined;
        return hash ? `block:${hash}:${b ? 1 : 0}` : null;
      }
      case "eth_call": {
        const hash = typeof b === "string" && HEX_NUMBER.test(b) ? known.get(Number.parseInt(b, 16)) : undefined;
        if (!hash || !isObject(a)) return null;
        return `call:${hash}:${JSON.stringify([a.to ?? null, a.data ?? a.input ?? null, a.from ?? null, a.value ?? null]).toLowerCase()}`;
      }
      case "eth_getLogs":
        return isObject(a) && typeof a.blockHash === "string" ? `logs@${a.blockHash.toLowerCase()}:${filterKey(a)}` : null;
      default:
        return null;
    }
  }

  /** eth_getLogs over a numbered range: a kept range after its last block is checked, or the chain's. */
  async function rangeLogs(params: Raw): Promise<unknown> {
    const id = await chain();
    const from = Number.parseInt(params.fromBlock as string, 16);
    const to = Number.parseInt(params.toBlock as string, 16);
    const key = `logs:${from}-${to}:${filterKey(params)}`;
    const kept = (await storage.read(id, [key])).get(key);
    const writes: [string, string][] = [];
    if (kept !== undefined) {
      const entry = JSON.parse(kept) as LogsEntry;
      const end = await inner.request<unknown>("eth_getBlockByNumber", [params.toBlock, false]);
      if (hashOf(end) === entry.end) {
        knowRange(from, to, entry.logs);
        await sawBlock(to, end, false, writes);
        keep(id, writes);
        return entry.logs;
      }
      await reorged(`block ${to} is no longer ${entry.end.slice(0, 10)}`);
    }
    const [logs, end] = await inner.batch<unknown>([
      { method: "eth_getLogs", params: [params] },
      { method: "eth_getBlockByNumber", params: [params.toBlock, false] },
    ]);
    const endHash = hashOf(end);
    // Kept only when the range's last block came with it and agrees with the logs (the chain did not move
    // between the two answers as far as they show).
    const consistent = Array.isArray(logs) && endHash !== null && logs.every((l) => isObject(l) && l.removed !== true && (Number.parseInt(l.blockNumber as string, 16) !== to || String(l.blockHash).toLowerCase() === endHash));
    knowRange(from, to, consistent ? (logs as Raw[]) : []);
    if (consistent) {
      await sawBlock(to, end, false, writes);
      writes.push([key, JSON.stringify({ end: endHash, logs } satisfies LogsEntry)]);
      keep(id, writes);
    }
    return logs;
  }

  const isRange = (call: RpcCall): boolean => {
    const [a] = call.params;
    return call.method === "eth_getLogs" && isObject(a) && typeof a.fromBlock === "string" && HEX_NUMBER.test(a.fromBlock) && typeof a.toBlock === "string" && HEX_NUMBER.test(a.toBlock);
  };

  /** Answers what was kept, sends the rest in one batch, keeps what can be kept. */
  async function answer(calls: RpcCall[]): Promise<unknown[]> {
    const id = await chain();
    const out: unknown[] = new Array(calls.length);
    const keys = calls.map(keyOf);
    const kept = await storage.read(id, keys.filter((k): k is string => k !== null));
    const missing: number[] = [];
    for (let i = 0; i < calls.length; i++) {
      const k = keys[i] ?? null;
      const value = k === null ? undefined : kept.get(k);
      if (value === undefined) missing.push(i);
      else out[i] = JSON.parse(value);
    }
    if (missing.length === 0) return out;
    const answers = calls.length === 1 ? [await inner.request<unknown>(calls[0]!.method, calls[0]!.params)] : await inner.batch<unknown>(missing.map((i) => calls[i]!));
    const writes: [string, string][] = [];
    for (let j = 0; j < missing.length; j++) {
      const i = missing[j]!;
      const call = calls[i]!;
      const result = answers[j];
      out[i] = result;
      if (call.method === "eth_getBlockByNumber" && typeof call.params[0] === "string" && HEX_NUMBER.test(call.params[0])) {
        await sawBlock(Number.parseInt(call.params[0], 16), result, call.params[1] === true, writes);
        continue;
      }
      // Kept only with a key made before the call (a call's block hash known then), and never a null.
      const k = keys[i] ?? null;
      if (k !== null && result !== null && result !== undefined) writes.push([k, JSON.stringify(result)]);
    }
    keep(id, writes);
    return out;
  }

  return {
    displayUrl: inner.displayUrl,
    stats,
    async request<T>(method: string, params: unknown[]): Promise<T> {
      const call = { method, params };
      if (isRange(call)) return (await rangeLogs(params[0] as Raw)) as T;
      if (!KEPT_METHODS.has(method)) return inner.request<T>(method, params);
      return (await answer([call]))[0] as T;
    },
    async batch<T>(calls: RpcCall[]): Promise<T[]> {
      if (calls.some(isRange)) return Promise.all(calls.map((c) => this.request<T>(c.method, c.params)));
      return (await answer(calls)) as T[];
    },
    async chainMoved(): Promise<void> {
      await reorged("the indexer found a reorg");
    },
    async settled(): Promise<void> {
      while (writing.size) await Promise.all(writing);
    },
  };
}
