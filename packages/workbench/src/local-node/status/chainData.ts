// The status API's chain reads: blockHashFromNumber, blockData and cachedEthereumCalls, answered from
// the network's JSON-RPC provider (graph-node reads its chain store first, then the provider). As
// graph-node: a network the node does not index, a block the chain does not have, or a provider that
// fails answers null, never an error.
import { cachedCallId, type EthCallRecord } from "./ethCallRecords.js";
export interface ChainReader {
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
  /** The eth_calls the node's chain client made at a block number (ethCallRecords.ts); none when absent. */
  callsAt?(blockNumber: number): EthCallRecord[];
}

/** The networks' providers: null for a network the node does not index. */
export type ChainReaders = (network: string) => Promise<ChainReader | null>;

type RawBlock = Record<string, unknown> & { hash?: string; number?: string };

/** graph-node waits 10 s for the provider's block (BLOCK_HASH_FROM_NUMBER_TIMEOUT). */
const BLOCK_LOOKUP_TIMEOUT_MS = 10_000;

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function blockByHash(reader: ChainReader, hash: string, withTransactions: boolean): Promise<RawBlock | null> {
  const block = await reader.request<RawBlock | null>("eth_getBlockByHash", [hash.toLowerCase(), withTransactions]).catch(() => null);
  return block && typeof block === "object" ? block : null;
}

export function chainDataResolvers(readers: ChainReaders) {
  return {
    async blockHashFromNumber(args: Record<string, unknown>): Promise<string | null> {
      const reader = await readers(String(args.network));
      const number = Number(args.blockNumber);
      if (!reader || !Number.isSafeInteger(number) || number < 0) return null;
      const block = await withTimeout(reader.request<RawBlock | null>("eth_getBlockByNumber", [`0x${number.toString(16)}`, false]).catch(() => null), BLOCK_LOOKUP_TIMEOUT_MS);
      // graph-node answers the hash as hex without `0x` (BlockPtr::hash_hex).
      return typeof block?.hash === "string" ? block.hash.toLowerCase().replace(/^0x/, "") : null;
    },
    async blockData(args: Record<string, unknown>): Promise<RawBlock | null> {
      const reader = await readers(String(args.network));
      return reader ? blockByHash(reader, String(args.blockHash), true) : null;
    },
    async cachedEthereumCalls(args: Record<string, unknown>): Promise<unknown[] | null> {
      const reader = await readers(String(args.network));
      if (!reader) return null;
      // A block the chain does not know answers null; one it knows, the calls kept at its number, in
      // graph-node's order (by contract address; its ties are Postgres's, here the id's).
      const block = await blockByHash(reader, String(args.blockHash), false);
      if (!block || typeof block.hash !== "string") return null;
      const hash = block.hash.toLowerCase();
      const number = Number(block.number);
      const calls = (reader.callsAt?.(number) ?? []).map((c) => ({ ...c, idHash: cachedCallId(c, hash) }));
      calls.sort((a, b) => (a.contractAddress < b.contractAddress ? -1 : a.contractAddress > b.contractAddress ? 1 : a.idHash < b.idHash ? -1 : 1));
      // As graph-node writes them: the block's hash without 0x, its number (a BigInt) as a string.
      return calls.map((c) => ({ idHash: c.idHash, block: { hash: hash.replace(/^0x/, ""), number: String(number) }, contractAddress: c.contractAddress, returnValue: c.returnValue }));
    },
  };
}
