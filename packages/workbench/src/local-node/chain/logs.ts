// eth_getLogs over block ranges with an adaptive span: shrink when the node refuses (too many
// results, range limits, timeouts), grow again while answers stay small.
import type { RpcClient } from "./rpcClient.js";
import { parseLog, toHex, type ChainLog } from "./blocks.js";
import { HttpRequestError, ResponseTooLargeError, RpcResponseError, TimeoutError } from "../../json-rpc/index.js";
import { BaseError } from "../../lib/errors.js";
import { ChainError } from "./errors.js";

export interface LogFilter {
  /** Contract addresses (lowercase 0x); empty = any address. */
  addresses: string[];
  /** Accepted topic0 values; empty = any event. */
  topic0s: string[];
}

export interface LogFetcherOptions {
  rpc: RpcClient;
  /** First span tried, in blocks (default 2000). */
  initialRange?: number;
  /** Never ask for more blocks than this at once (default 50,000). */
  maxRange?: number;
  /** Grow the span while a chunk returns fewer logs than this (default 5,000). */
  growBelowLogs?: number;
  /** Halve the span after a chunk with more logs than this (default 20,000), to keep chunks pipelined. */
  shrinkAboveLogs?: number;
  /** Told when a range is refused or times out and a smaller one is tried. */
  onShrink?(message: string): void;
}

export interface LogChunk {
  logs: ChainLog[];
  /** Last block number covered by this chunk (inclusive). */
  toBlock: number;
}

export interface LogFetcher {
  /** Fetches logs from `fromBlock` up to at most `toBlock`; the chunk may stop earlier. */
  next(fromBlock: number, toBlock: number, filter: LogFilter): Promise<LogChunk>;
  readonly range: number;
}

// Phrases nodes use when a getLogs range is too large (geth, erigon, alchemy, infura, quicknode, ...).
const LIMIT_PATTERN = /too many|limit|exceed|range|timeout|timed out|query returned more than|response size|block range/i;

/** True when the error means "ask for fewer blocks", not "the node is broken". */
export function isRangeLimitError(err: unknown): boolean {
  // An answer past the client's size limit: fewer blocks give a smaller one.
  if (err instanceof TimeoutError || err instanceof ResponseTooLargeError) return true;
  if (err instanceof HttpRequestError) return [413, 503, 504].includes(err.status);
  if (err instanceof RpcResponseError) return err.code === -32005 || LIMIT_PATTERN.test(err.message);
  return false;
}

/** Some providers suggest a workable range in the message, e.g. "[0x10, 0x2f]". */
function suggestedEnd(err: unknown, fromBlock: number): number | null {
  if (!(err instanceof Error)) return null;
  const m = /\[(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\]/i.exec(err.message);
  if (!m?.[1] || !m[2]) return null;
  const start = Number.parseInt(m[1], 16);
  const end = Number.parseInt(m[2], 16);
  return start === fromBlock && end >= start ? end : null;
}

function filterParams(filter: LogFilter): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (filter.addresses.length > 0) params.address = filter.addresses.length === 1 ? filter.addresses[0] : filter.addresses;
  if (filter.topic0s.length > 0) params.topics = [filter.topic0s.length === 1 ? filter.topic0s[0] : filter.topic0s];
  return params;
}

/** eth_getLogs, its answer checked to be a list of log objects. */
async function requestLogs(rpc: RpcClient, params: Record<string, unknown>): Promise<ChainLog[]> {
  const answer = await rpc.request<unknown>("eth_getLogs", [params]);
  if (!Array.isArray(answer) || !answer.every((l) => typeof l === "object" && l !== null)) throw new ChainError("eth_getLogs answered with something other than a list of logs");
  return (answer as Record<string, unknown>[]).map(parseLog);
}

/** The logs of one block, named by hash (EIP-234), so they belong to that block or to none. */
export async function getLogsInBlock(rpc: RpcClient, blockHash: string, filter: LogFilter): Promise<ChainLog[]> {
  return requestLogs(rpc, { blockHash, ...filterParams(filter) });
}

export function createLogFetcher(options: LogFetcherOptions): LogFetcher {
  const maxRange = options.maxRange ?? 50_000;
  const growBelow = options.growBelowLogs ?? 5_000;
  const shrinkAbove = options.shrinkAboveLogs ?? 20_000;
  let range = Math.min(options.initialRange ?? 2_000, maxRange);
  // The smallest span the node refused; growth stays below it (forgotten after a while, limits vary).
  let ceiling = Number.POSITIVE_INFINITY;
  let successes = 0;

  return {
    get range() {
      return range;
    },
    async next(fromBlock, toBlock, filter) {
      for (;;) {
        const end = Math.min(toBlock, fromBlock + range - 1);
        const params: Record<string, unknown> = { fromBlock: toHex(fromBlock), toBlock: toHex(end), ...filterParams(filter) };
        try {
          const logs = await requestLogs(options.rpc, params);
          if (++successes >= 50) (ceiling = Number.POSITIVE_INFINITY), (successes = 0);
          if (logs.length < growBelow && end - fromBlock + 1 >= range) range = Math.max(range, Math.min(maxRange, range * 2, Math.floor((range + ceiling) / 2)));
          else if (logs.length > shrinkAbove) range = Math.max(1, Math.floor(range / 2));
          return { logs, toBlock: end };
        } catch (err) {
          if (!isRangeLimitError(err)) throw err;
          ceiling = Math.min(ceiling, end - fromBlock + 1);
          successes = 0;
          const hinted = suggestedEnd(err, fromBlock);
          if (hinted !== null && hinted < end) {
            range = hinted - fromBlock + 1;
            options.onShrink?.(`eth_getLogs for blocks ${fromBlock}-${end} refused; the node suggests ${range} blocks`);
            continue;
          }
          if (end === fromBlock) throw new ChainError(`eth_getLogs refuses even a single block (${fromBlock})`, { cause: err });
          range = Math.max(1, Math.floor((end - fromBlock + 1) / 2));
          options.onShrink?.(`eth_getLogs for blocks ${fromBlock}-${end} failed (${err instanceof BaseError ? err.shortMessage : String(err)}); trying ${range} blocks`);
        }
      }
    },
  };
}
