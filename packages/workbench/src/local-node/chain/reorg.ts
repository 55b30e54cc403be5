// Reorg handling: find the newest block we indexed whose hash the chain still has.
import type { BlockPtr } from "../../wasm-host/index.js";
import type { RpcClient } from "./rpcClient.js";
import { getBlocks } from "./blocks.js";

export interface FindAncestorOptions {
  rpc: RpcClient;
  /** Blocks we recorded, newest first (from memory and/or the store's recent block hashes). */
  known: BlockPtr[];
  /** How many candidates to check per RPC batch (default 50). */
  batchSize?: number;
}

/**
 * Returns the newest known block that is still on the canonical chain, or null when none is (the
 * caller then reverts to before its start block). Hashes are compared in one batch per window.
 */
export async function findCommonAncestor(options: FindAncestorOptions): Promise<BlockPtr | null> {
  const batch = options.batchSize ?? 50;
  const known = [...options.known].sort((a, b) => b.number - a.number);
  for (let i = 0; i < known.length; i += batch) {
    const window = known.slice(i, i + batch);
    const blocks = await getBlocks(options.rpc, window.map((k) => k.number), false);
    for (let j = 0; j < window.length; j++) {
      const k = window[j];
      const b = blocks[j];
      if (k && b && b.hash === k.hash.toLowerCase()) return { number: k.number, hash: b.hash };
    }
  }
  return null;
}

/** Keeps the last `capacity` committed block pointers of one deployment, for reorg checks. */
export interface RecentBlocks {
  add(ptr: BlockPtr): void;
  /** Newest first. */
  list(): BlockPtr[];
  /** Forget everything above `number` (after a revert). */
  truncateAbove(number: number): void;
  clear(): void;
}

export function createRecentBlocks(capacity = 500): RecentBlocks {
  let items: BlockPtr[] = [];
  return {
    add(ptr) {
      if (items.length > 0 && items[items.length - 1]!.number >= ptr.number) {
        items = items.filter((p) => p.number < ptr.number);
      }
      items.push(ptr);
      if (items.length > capacity) items.splice(0, items.length - capacity);
    },
    list: () => [...items].reverse(),
    truncateAbove(number) {
      items = items.filter((p) => p.number <= number);
    },
    clear() {
      items = [];
    },
  };
}
