// Blocks, transactions, receipts and logs as the indexer needs them, parsed from JSON-RPC hex.
import type { RpcClient } from "./rpcClient.js";

export interface ChainTransaction {
  hash: string;
  index: bigint;
  from: string;
  to: string | null;
  value: bigint;
  gasLimit: bigint;
  gasPrice: bigint;
  input: string;
  nonce: bigint;
}

export interface ChainBlock {
  number: number;
  hash: string;
  parentHash: string;
  unclesHash: string;
  author: string;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  gasUsed: bigint;
  gasLimit: bigint;
  timestamp: bigint;
  difficulty: bigint;
  totalDifficulty: bigint;
  size: bigint;
  baseFeePerGas: bigint | null;
  /** Present when the block was fetched with full transactions. */
  transactions: ChainTransaction[] | null;
}

export interface ChainLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  blockHash: string;
  transactionHash: string;
  transactionIndex: number;
  logIndex: number;
  removed: boolean;
}

export interface ChainReceipt {
  transactionHash: string;
  transactionIndex: bigint;
  blockHash: string;
  blockNumber: bigint;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  contractAddress: string | null;
  status: bigint;
  root: string;
  logsBloom: string;
  logs: ChainLog[];
}

type Raw = Record<string, unknown>;

const ZERO32 = `0x${"0".repeat(64)}`;

function big(v: unknown): bigint {
  return typeof v === "string" && v.length > 2 ? BigInt(v) : 0n;
}
function num(v: unknown): number {
  return typeof v === "string" && v.length > 2 ? Number.parseInt(v, 16) : 0;
}
function str(v: unknown, fallback = "0x"): string {
  return typeof v === "string" ? v.toLowerCase() : fallback;
}

export function toHex(n: number | bigint): string {
  return `0x${n.toString(16)}`;
}

export function parseTransaction(t: Raw): ChainTransaction {
  return {
    hash: str(t.hash),
    index: big(t.transactionIndex),
    from: str(t.from),
    to: typeof t.to === "string" ? t.to.toLowerCase() : null,
    value: big(t.value),
    gasLimit: big(t.gas),
    // Most nodes report the effective price; graph-node uses 0 when a node leaves it out.
    gasPrice: big(t.gasPrice),
    input: str(t.input ?? t.data),
    nonce: big(t.nonce),
  };
}

export function parseBlock(b: Raw): ChainBlock {
  const txs = Array.isArray(b.transactions) ? (b.transactions as unknown[]) : null;
  const full = txs !== null && txs.every((t) => typeof t === "object" && t !== null);
  return {
    number: num(b.number),
    hash: str(b.hash),
    parentHash: str(b.parentHash),
    unclesHash: str(b.sha3Uncles, ZERO32),
    author: str(b.miner),
    stateRoot: str(b.stateRoot, ZERO32),
    transactionsRoot: str(b.transactionsRoot, ZERO32),
    receiptsRoot: str(b.receiptsRoot, ZERO32),
    gasUsed: big(b.gasUsed),
    gasLimit: big(b.gasLimit),
    timestamp: big(b.timestamp),
    difficulty: big(b.difficulty),
    totalDifficulty: big(b.totalDifficulty),
    size: big(b.size),
    baseFeePerGas: typeof b.baseFeePerGas === "string" ? big(b.baseFeePerGas) : null,
    transactions: full ? (txs as Raw[]).map(parseTransaction) : null,
  };
}

export function parseLog(l: Raw): ChainLog {
  return {
    address: str(l.address),
    topics: Array.isArray(l.topics) ? (l.topics as string[]).map((t) => t.toLowerCase()) : [],
    data: str(l.data),
    blockNumber: num(l.blockNumber),
    blockHash: str(l.blockHash),
    transactionHash: str(l.transactionHash),
    transactionIndex: num(l.transactionIndex),
    logIndex: num(l.logIndex),
    removed: l.removed === true,
  };
}

export function parseReceipt(r: Raw): ChainReceipt {
  return {
    transactionHash: str(r.transactionHash),
    transactionIndex: big(r.transactionIndex),
    blockHash: str(r.blockHash),
    blockNumber: big(r.blockNumber),
    cumulativeGasUsed: big(r.cumulativeGasUsed),
    gasUsed: big(r.gasUsed),
    contractAddress: typeof r.contractAddress === "string" ? r.contractAddress.toLowerCase() : null,
    status: big(r.status),
    root: str(r.root, ZERO32),
    logsBloom: str(r.logsBloom),
    logs: Array.isArray(r.logs) ? (r.logs as Raw[]).map(parseLog) : [],
  };
}

export async function getHeadNumber(rpc: RpcClient): Promise<number> {
  return num(await rpc.request<string>("eth_blockNumber", []));
}

/** Blocks by number in one batch; a missing block (beyond the head) is null. */
export async function getBlocks(rpc: RpcClient, numbers: number[], fullTransactions: boolean): Promise<(ChainBlock | null)[]> {
  if (numbers.length === 0) return [];
  const raw = await rpc.batch<Raw | null>(numbers.map((n) => ({ method: "eth_getBlockByNumber", params: [toHex(n), fullTransactions] })));
  return raw.map((b) => (b ? parseBlock(b) : null));
}

export async function getBlock(rpc: RpcClient, number: number, fullTransactions = false): Promise<ChainBlock | null> {
  const [b] = await getBlocks(rpc, [number], fullTransactions);
  return b ?? null;
}

export async function getReceipts(rpc: RpcClient, hashes: string[]): Promise<Map<string, ChainReceipt>> {
  const raw = await rpc.batch<Raw | null>(hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })));
  const out = new Map<string, ChainReceipt>();
  for (const r of raw) if (r) out.set(str(r.transactionHash), parseReceipt(r));
  return out;
}

export async function getTransactions(rpc: RpcClient, hashes: string[]): Promise<Map<string, ChainTransaction>> {
  const raw = await rpc.batch<Raw | null>(hashes.map((h) => ({ method: "eth_getTransactionByHash", params: [h] })));
  const out = new Map<string, ChainTransaction>();
  for (const t of raw) if (t) out.set(str(t.hash), parseTransaction(t));
  return out;
}
