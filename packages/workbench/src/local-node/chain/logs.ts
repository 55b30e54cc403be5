// eth_getLogs over block ranges with an adaptive span: shrink when the node refuses (too many
// results, range limits, answers too large), grow again while answers stay small.
import type { RpcClient } from "./rpcClient.js";
import { parseLog, toHex, type ChainLog } from "./blocks.js";
import { TimeoutError } from "../../json-rpc/index.js";
import { ProvidersUnavailableError, classifyRpcError } from "../providers/index.js";
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

/**
 * True when the error means "ask for fewer blocks": a range or result cap in any provider's words
 * (providers/errorKinds.ts), an answer past the client's size limit, or a request that keeps timing out.
 * A rate limit, a 503 or a node behind never is: the provider pool waits those out, and the range stays.
 */
export function isRangeLimitError(err: unknown): boolean {
  if (classifyRpcError(err).kind === "range") return true;
  // Only a plain client lets a timeout through; the pool first asks again, on other providers too.
  if (err instanceof TimeoutError) return true;
  return err instanceof ProvidersUnavailableError && err.cause instanceof TimeoutError;
}

/** Some providers suggest a workable range in the message, e.g. "[0x10, 0x2f]" or "retry with the range 16-47". */
function suggestedEnd(err: unknown, fromBlock: number): number | null {
  const hint = classifyRpcError(err).suggestedRange;
  return hint && hint.from === fromBlock && hint.to >= hint.from ? hint.to : null;
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
