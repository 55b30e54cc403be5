// What graph-node keeps in its eth_call cache, for the status API's cachedEthereumCalls: every
// successful eth_call that answered some bytes (graph-node keeps no failed or empty answer), by block
// number, as the node's chain client made it. Kept in memory, the most recent 20,000 calls (a few MB),
// where graph-node keeps them in Postgres for good (local-node/status/README.md).
import { createBLAKE3 } from "hash-wasm";

export interface EthCallRecord {
  /** 20 bytes, lowercase 0x hex. */
  contractAddress: string;
  /** The call's data (selector and arguments), lowercase 0x hex. */
  data: string;
  returnValue: string;
}

/** The client side of a chain: only its `request` is watched, every other member is passed through. */
export interface WatchedClient {
  request<T = unknown>(method: string, params: unknown[]): Promise<T>;
}

export interface EthCallRecorder {
  /** The client, the same but for eth_call answers being kept. */
  watch<C extends WatchedClient>(client: C): C;
  /** The calls kept for a block number, each once (graph-node's id covers the data, address and block). */
  callsAt(blockNumber: number): EthCallRecord[];
}

const HEX = /^0x[0-9a-f]*$/i;
/** How many calls are kept: the blocks seen longest ago go first, whole. */
const DEFAULT_CALLS_KEPT = 20_000;

export function createEthCallRecorder(callsKept = DEFAULT_CALLS_KEPT): EthCallRecorder {
  const byBlock = new Map<number, Map<string, EthCallRecord>>();
  let kept = 0;
  function keep(blockNumber: number, record: EthCallRecord): void {
    let calls = byBlock.get(blockNumber);
    if (!calls) byBlock.set(blockNumber, (calls = new Map()));
    const key = `${record.contractAddress}:${record.data}`;
    // graph-node inserts with ON CONFLICT DO NOTHING: the first answer for a call stays.
    if (calls.has(key)) return;
    calls.set(key, record);
    kept++;
    // Map keeps insertion order: the first key is the block seen longest ago.
    while (kept > callsKept && byBlock.size > 1) {
      const oldest = byBlock.keys().next().value as number;
      kept -= byBlock.get(oldest)?.size ?? 0;
      byBlock.delete(oldest);
    }
  }
  return {
    watch(client) {
      const request = client.request.bind(client);
      const watched = Object.create(client) as typeof client;
      watched.request = (async (method: string, params: unknown[]) => {
        const answer = await request(method, params);
        if (method !== "eth_call") return answer;
        const [call, tag] = params as [{ to?: unknown; data?: unknown; input?: unknown } | undefined, unknown];
        const data = call?.data ?? call?.input;
        // Only calls at a block number are a block's; an empty answer is not kept, as graph-node.
        if (typeof tag === "string" && HEX.test(tag) && typeof call?.to === "string" && typeof data === "string" && typeof answer === "string" && answer.length > 2) {
          keep(Number.parseInt(tag, 16), { contractAddress: call.to.toLowerCase(), data: data.toLowerCase(), returnValue: answer.toLowerCase() });
        }
        return answer;
      }) as typeof client.request;
      return watched;
    },
    callsAt: (blockNumber) => [...(byBlock.get(blockNumber)?.values() ?? [])],
  };
}

const idHasher = await createBLAKE3(256);
const bytesOf = (hex: string) => Buffer.from(hex.slice(2), "hex");

/** graph-node's id of a cached call: BLAKE3 over the call data, the contract address and the block hash. */
export function cachedCallId(record: EthCallRecord, blockHash: string): string {
  idHasher.init();
  idHasher.update(bytesOf(record.data));
  idHasher.update(bytesOf(record.contractAddress));
  idHasher.update(bytesOf(blockHash.startsWith("0x") ? blockHash : `0x${blockHash}`));
  return `0x${idHasher.digest("hex")}`;
}
