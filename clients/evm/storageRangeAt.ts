import { createBatchCaller, type BatchEntry, type JsonRpcClient, type RequestOptions, type RpcCall, ConnectionError, InvalidParamsRpcError, TimeoutError } from "subgraph-workbench/json-rpc";
import { BlockFetchError, NodeConnectionError, StorageRangeParamsError } from "./errors.js";
import { normalizeWord, parseStartKey, slotKey, ZERO_WORD } from "./slotKey.js";

export type StorageRangeLogger = { warn(message: string): void };

export type StorageRangeAtParameters = {
  /** The block whose state is read; every slot read is pinned to it (EIP-1898). */
  blockHash: string;
  /** Accepted for call compatibility with debug_storageRangeAt and ignored. */
  txIndex?: number;
  /** Contract address. */
  address: string;
  /** First slot to read: hex (`0x0`, a mapping slot...) or an integer. */
  startKey: string | bigint | number;
  /** Entries per page; 10 unless set. At most 10 × maxResults slots are tried. */
  maxResults?: number;
  /** Receives one warning per slot read that failed; console unless set. */
  logger?: StorageRangeLogger;
  /** Most calls per JSON-RPC batch; 500 unless set. */
  maxBatchSize?: number;
  request?: RequestOptions;
};

export type StorageEntry = { key: null; value: string };

export type StorageRangeAtReturnType = {
  /** Non-zero slots by slot index in hex without leading zeros (`0x0`, `0xb`), in slot order. */
  storage: Record<string, StorageEntry>;
  /** Hex of the slot after the last one tried, only when the page is full; null otherwise. */
  nextKey: string | null;
};

export const DEFAULT_MAX_RESULTS = 10;

// Read-ahead for the first round trip: room for a page where most slots are zero, so one round trip
// usually does. Reads past the stopping point cost node work, not latency, and are discarded.
const firstReadCount = (maxResults: number) => 4 * maxResults + 8;

// Bounds one round trip (batches of maxBatchSize go out concurrently) so huge pages do not flood the node.
const MAX_READS_PER_ROUND = 2_000;

/** Slots for the next round trip, from the non-zero density seen so far, with some slack. */
function nextReadCount(found: number, tried: number, maxResults: number): number {
  const density = Math.max(found / Math.max(tried, 1), 0.1);
  return Math.ceil(((maxResults - found) / density) * 1.25) + 4;
}

type SlotOutcome = { ok: true; value: string } | { ok: false; reason: string; error?: unknown };

function slotOutcome(entry: BatchEntry): SlotOutcome {
  if (!entry.ok) return { ok: false, reason: entry.error.shortMessage, error: entry.error };
  const value = normalizeWord(entry.result);
  return value ? { ok: true, value } : { ok: false, reason: `unexpected value ${JSON.stringify(entry.result)}` };
}

/** Every read refused as invalid params: the node takes no EIP-1898 block object. */
const blockObjectRefused = (outcomes: SlotOutcome[]) =>
  outcomes.length > 0 && outcomes.every((o) => !o.ok && o.error instanceof InvalidParamsRpcError);

/** Checks the block lookup and returns the block number (hex). */
function checkBlock(entry: BatchEntry, blockHash: string): string {
  if (!entry.ok) {
    // Like web3.py's is_connected(): no answer in time counts as no connection.
    if (entry.error instanceof ConnectionError || entry.error instanceof TimeoutError) throw new NodeConnectionError(entry.error);
    throw new BlockFetchError(entry.error.shortMessage, entry.error);
  }
  const block = entry.result as { number?: unknown } | null;
  // web3.py's wording for a hash the node does not know.
  if (block === null || typeof block !== "object") throw new BlockFetchError(`Block with id: '${blockHash}' not found.`);
  if (typeof block.number !== "string") throw new BlockFetchError("the block has no number");
  return block.number;
}

/**
 * Emulates `debug_storageRangeAt` over `eth_getStorageAt` (for nodes such as Reth that lack it):
 * reads slots upward from int(startKey), omits zero slots, skips failed reads with a warning, stops at
 * maxResults entries or 10 × maxResults attempts. `txIndex` is ignored.
 *
 * Same result as reading one slot per request, in far fewer round trips: the block lookup and the first
 * slots share one JSON-RPC batch, reads are pinned to `{blockHash}`, and slots read past the stopping
 * point are discarded.
 * - JSON-RPC methods: `eth_getBlockByHash`, `eth_getStorageAt`
 */
export async function storageRangeAt(client: JsonRpcClient, params: StorageRangeAtParameters): Promise<StorageRangeAtReturnType> {
  const maxResults = params.maxResults ?? DEFAULT_MAX_RESULTS;
  if (!Number.isSafeInteger(maxResults) || maxResults < 1) {
    throw new StorageRangeParamsError(`max_results must be a positive integer, got ${String(maxResults)}`);
  }
  const start = parseStartKey(params.startKey);
  const logger = params.logger ?? console;
  const maxAttempts = 10 * maxResults;
  let blockRef: { blockHash: string } | string = { blockHash: params.blockHash };
  const readCall = (slot: bigint): RpcCall => ({ method: "eth_getStorageAt", params: [params.address, slotKey(slot), blockRef] });
  const caller = createBatchCaller(client, {
    ...(params.maxBatchSize !== undefined && { maxBatchSize: params.maxBatchSize }),
    ...(params.request !== undefined && { request: params.request }),
  });

  const storage: Record<string, StorageEntry> = {};
  let found = 0;
  let tried = 0;
  let nextSlot = start;

  // First round trip: the block and the first slots together.
  let count = Math.min(maxAttempts, firstReadCount(maxResults), MAX_READS_PER_ROUND);
  const slots = (from: bigint, n: number) => Array.from({ length: n }, (_, i) => from + BigInt(i));
  let batchSlots = slots(start, count);
  const first = await caller.call([{ method: "eth_getBlockByHash", params: [params.blockHash, false] }, ...batchSlots.map(readCall)]);
  const blockNumber = checkBlock(first[0]!, params.blockHash);
  let outcomes = first.slice(1).map(slotOutcome);
  if (blockObjectRefused(outcomes)) {
    // A node without EIP-1898 support: read at the block's number, as the reference does.
    blockRef = blockNumber;
    outcomes = (await caller.call(batchSlots.map(readCall))).map(slotOutcome);
  }

  for (;;) {
    for (let i = 0; i < batchSlots.length; i++) {
      const slot = batchSlots[i]!;
      const outcome = outcomes[i]!;
      tried++;
      nextSlot = slot + 1n;
      if (!outcome.ok) logger.warn(`Warning: failed to read slot ${slotKey(slot)}: ${outcome.reason}`);
      else if (outcome.value !== ZERO_WORD) {
        storage[slotKey(slot)] = { key: null, value: outcome.value };
        found++;
      }
      if (found === maxResults) return { storage, nextKey: slotKey(nextSlot) };
      if (tried === maxAttempts) return { storage, nextKey: null };
    }
    count = Math.min(maxAttempts - tried, nextReadCount(found, tried, maxResults), MAX_READS_PER_ROUND);
    batchSlots = slots(nextSlot, count);
    outcomes = (await caller.call(batchSlots.map(readCall))).map(slotOutcome);
  }
}
