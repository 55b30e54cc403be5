// The node's chain access: JSON-RPC client, blocks and receipts, log fetching, reorg detection.
export { getBlock, getBlocks, getHeadNumber, getReceipts, getTransactions, toHex } from "./blocks.js";
export type { ChainBlock, ChainLog, ChainReceipt, ChainTransaction } from "./blocks.js";
export { ChainError, ChainReorgedError } from "./errors.js";
export { createLogFetcher, getLogsInBlock } from "./logs.js";
export { tracedCalls } from "./callTraces.js";
export type { TracedCall } from "./callTraces.js";
export type { LogFilter } from "./logs.js";
export { createRecentBlocks, findCommonAncestor } from "./reorg.js";
export { createRpcClient } from "./rpcClient.js";
export { withChainCache } from "./chainCache.js";
export type { CachedRpcClient, ChainCacheStats, ChainCacheStorage } from "./chainCache.js";
export type { RpcClient } from "./rpcClient.js";
export { createChainSet, parseRpcEntry } from "./networks.js";
export type { ChainSet, ChainSetOptions } from "./networks.js";
// The providers part is the chain's inner layer: the node and the indexer reach it through here.
export { ProvidersUnavailableError, ProviderConfigError, readGraphNodeConfig } from "../providers/index.js";
export type { NetworkProviders, ProviderStatus } from "../providers/index.js";
