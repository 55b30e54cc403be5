// Turns the logs of one block range into block jobs for the host: matches handlers, decodes, fetches
// the blocks (with transactions) and receipts where asked, and checks that every log's block hash is
// the block we fetched (otherwise the chain moved under us and the range is retried).
import type { EthereumBlockInput, EthereumTransactionInput } from "../../wasm-host/index.js";
import { type RpcClient, getBlocks, getReceipts, getTransactions, type ChainBlock, type ChainLog, type ChainReceipt, type ChainTransaction, ChainReorgedError } from "../chain/index.js";
import type { LogDecoder } from "./decode.js";
import { blockInput, buildEvent, transactionInput } from "./eventBuilder.js";
import type { BlockJob, JobBlockPtr, Trigger } from "./hostProtocol.js";

export interface LoaderDataSource {
  address: string | null;
  startBlock: number;
  /** No triggers after this block (null: none). */
  endBlock?: number | null;
  decoder: LogDecoder;
}

export interface LoadedRange {
  jobs: BlockJob[];
  /** The range's last block (the pointer after a successful commit). */
  end: JobBlockPtr;
  events: number;
}

// Blocks per batch request: full blocks of a busy chain are large (hundreds of transactions each).
const BLOCK_BATCH = 20;

export async function loadRange(rpc: RpcClient, dataSources: LoaderDataSource[], logs: ChainLog[], toBlock: number): Promise<LoadedRange> {
  const sorted = logs.filter((l) => !l.removed).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);

  // Match first: only blocks with a handled log need a full fetch.
  const matched: { log: ChainLog; ds: number; handler: string; receipt: boolean; params: Trigger["event"]["parameters"] }[] = [];
  for (const log of sorted) {
    dataSources.forEach((ds, i) => {
      if (log.blockNumber < ds.startBlock) return;
      if (ds.endBlock != null && log.blockNumber > ds.endBlock) return;
      if (ds.address !== null && ds.address !== log.address) return;
      for (const m of ds.decoder.match(log)) {
        matched.push({ log, ds: i, handler: m.handler.handler, receipt: m.handler.receipt, params: m.parameters });
      }
    });
  }

  const numbers = [...new Set(matched.map((m) => m.log.blockNumber))];
  const withLogs = new Set(numbers);
  if (!withLogs.has(toBlock)) numbers.push(toBlock);
  const blocks = new Map<number, ChainBlock>();
  for (let i = 0; i < numbers.length; i += BLOCK_BATCH) {
    const slice = numbers.slice(i, i + BLOCK_BATCH);
    const full = slice.filter((n) => withLogs.has(n));
    const bare = slice.filter((n) => !withLogs.has(n));
    const [a, b] = await Promise.all([getBlocks(rpc, full, true), getBlocks(rpc, bare, false)]);
    [...full, ...bare].forEach((n, j) => {
      const blk = j < full.length ? a[j] : b[j - full.length];
      if (!blk) throw new ChainReorgedError(`block ${n} is gone (the chain reorganised or shrank)`);
      blocks.set(n, blk);
    });
  }

  const txs = new Map<string, ChainTransaction>();
  for (const n of withLogs) for (const t of blocks.get(n)?.transactions ?? []) txs.set(t.hash, t);
  const missing = [...new Set(matched.map((m) => m.log.transactionHash).filter((h) => !txs.has(h)))];
  if (missing.length > 0) for (const [h, t] of await getTransactions(rpc, missing)) txs.set(h, t);
  const wantReceipt = [...new Set(matched.filter((m) => m.receipt).map((m) => m.log.transactionHash))];
  const receipts: Map<string, ChainReceipt> = wantReceipt.length > 0 ? await getReceipts(rpc, wantReceipt) : new Map();

  // One input object per block and transaction: structured clone to the worker then sends each once.
  const blockInputs = new Map<number, EthereumBlockInput>();
  const txInputs = new Map<string, EthereumTransactionInput>();
  const jobs: BlockJob[] = [];
  let job: BlockJob | null = null;
  for (const m of matched) {
    const blk = blocks.get(m.log.blockNumber)!;
    if (blk.hash !== m.log.blockHash) throw new ChainReorgedError(`log of block ${blk.number} has hash ${m.log.blockHash}, the block is ${blk.hash}`);
    let bi = blockInputs.get(blk.number);
    if (!bi) blockInputs.set(blk.number, (bi = blockInput(blk)));
    let ti = txInputs.get(m.log.transactionHash);
    if (!ti) {
      const t = txs.get(m.log.transactionHash);
      if (!t) throw new ChainReorgedError(`transaction ${m.log.transactionHash} not found`);
      txInputs.set(m.log.transactionHash, (ti = transactionInput(t)));
    }
    if (!job || job.ptr.number !== blk.number) {
      job = { ptr: jobPtr(blk), triggers: [] };
      jobs.push(job);
    }
    job.triggers.push({
      dataSource: m.ds,
      handler: m.handler,
      event: buildEvent({ log: m.log, block: bi, transaction: ti, parameters: m.params, receipt: m.receipt ? (receipts.get(m.log.transactionHash) ?? null) : null }),
    });
  }
  const last = blocks.get(toBlock)!;
  return { jobs, end: jobPtr(last), events: matched.length };
}

export function jobPtr(b: ChainBlock): JobBlockPtr {
  return { number: b.number, hash: b.hash, timestamp: Number(b.timestamp), parentHash: b.parentHash };
}
