// Turns one block range into block jobs for the host: matches the logs to handlers and decodes them,
// adds block handler triggers, fetches the blocks (with transactions where a log needs them) and
// receipts where asked, and checks that every log's block hash is the block we fetched (otherwise
// the chain moved under us and the range is retried). Within a block the triggers come in
// graph-node's order: `once` block handlers, then logs by log index, then the other block handlers;
// for each, the matching data sources in their order.
import type { EthereumBlockInput, EthereumTransactionInput } from "../../wasm-host/index.js";
import {
  type RpcClient,
  getBlocks,
  getReceipts,
  getTransactions,
  tracedCalls,
  type ChainBlock,
  type ChainLog,
  type ChainReceipt,
  type ChainTransaction,
  ChainReorgedError,
} from "../chain/index.js";
import { blockInput, buildEvent, transactionInput } from "./eventBuilder.js";
import type { BlockJob, JobBlockPtr, Trigger } from "./hostProtocol.js";
import { tracesCalls, type LoaderDataSource } from "./liveDataSources.js";
import { mergeJobs } from "./jobMerge.js";

export interface LoadedRange {
  jobs: BlockJob[];
  /** The range's last block (the pointer after a successful commit). */
  end: JobBlockPtr;
  events: number;
}

// Blocks per batch request: full blocks of a busy chain are large (hundreds of transactions each).
const BLOCK_BATCH = 20;

type BlockTrigger = { ds: number; handler: string };

function active(ds: LoaderDataSource, n: number): boolean {
  return n >= ds.startBlock && (ds.endBlock == null || n <= ds.endBlock);
}

/** The block handlers due at block `n`: `once` ones (first in the block) and the rest (last). */
function blockTriggersAt(dataSources: LoaderDataSource[], n: number): { start: BlockTrigger[]; end: BlockTrigger[] } {
  const start: BlockTrigger[] = [];
  const end: BlockTrigger[] = [];
  for (const ds of dataSources) {
    if (ds.blockHandlers.length === 0 || !active(ds, n)) continue;
    // graph-node picks one handler per trigger kind: the first that matches.
    const once = ds.blockHandlers.find((h) => h.filter?.kind === "once");
    if (once && n === ds.startBlock) start.push({ ds: ds.index, handler: once.handler });
    const every = ds.blockHandlers.find((h) => h.filter === null || (h.filter.kind === "polling" && (n - ds.startBlock) % h.filter.every === 0));
    if (every) end.push({ ds: ds.index, handler: every.handler });
  }
  return { start, end };
}

export async function loadRange(rpc: RpcClient, dataSources: LoaderDataSource[], logs: ChainLog[], fromBlock: number, toBlock: number): Promise<LoadedRange> {
  const sorted = logs.filter((l) => !l.removed).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);

  // Match first: only blocks with a handled log need a full fetch.
  const matched: { log: ChainLog; ds: number; handler: string; receipt: boolean; params: (Trigger & { kind: "event" })["event"]["parameters"] }[] = [];
  // graph-node runs at most one handler per log and data source; a second match fails the subgraph.
  const refused: { log: ChainLog; ds: number; message: string }[] = [];
  // Thousands of created data sources: look a log's candidates up by address (plus those without one),
  // in data source order.
  const byAddress = new Map<string, LoaderDataSource[]>();
  const anyAddress: LoaderDataSource[] = [];
  for (const ds of dataSources) {
    if (ds.file) continue;
    if (ds.address === null) anyAddress.push(ds);
    else byAddress.set(ds.address, [...(byAddress.get(ds.address) ?? []), ds]);
  }
  const candidatesOf = (address: string): LoaderDataSource[] => {
    const own = byAddress.get(address);
    if (!own) return anyAddress;
    return anyAddress.length === 0 ? own : [...own, ...anyAddress].sort((a, b) => a.index - b.index);
  };
  for (const log of sorted) {
    for (const ds of candidatesOf(log.address)) {
      if (!active(ds, log.blockNumber)) continue;
      const found = ds.decoder.match(log);
      if (found.length > 1) {
        refused.push({ log, ds: ds.index, message: `Multiple handlers defined for event \`${found[0]!.handler.event}\`, only one is supported` });
        continue;
      }
      for (const m of found) {
        matched.push({ log, ds: ds.index, handler: m.handler.handler, receipt: m.handler.receipt, params: m.parameters });
      }
    }
  }

  const blockTriggers = new Map<number, { start: BlockTrigger[]; end: BlockTrigger[] }>();
  if (dataSources.some((d) => d.blockHandlers.length > 0)) {
    for (let n = fromBlock; n <= toBlock; n++) {
      const due = blockTriggersAt(dataSources, n);
      if (due.start.length > 0 || due.end.length > 0) blockTriggers.set(n, due);
    }
  }

  const withLogs = new Set(matched.map((m) => m.log.blockNumber));
  // Call handlers need every block's transactions, to trace them.
  const callSources = dataSources.filter((d) => !d.file && tracesCalls(d));
  const traced = new Set<number>();
  if (callSources.length > 0) for (let n = fromBlock; n <= toBlock; n++) if (callSources.some((d) => active(d, n))) traced.add(n);
  const full = (n: number): boolean => withLogs.has(n) || traced.has(n);
  const numbers = [...new Set([...withLogs, ...traced, ...refused.map((r) => r.log.blockNumber), ...blockTriggers.keys(), toBlock])].sort((a, b) => a - b);
  const blocks = new Map<number, ChainBlock>();
  for (let i = 0; i < numbers.length; i += BLOCK_BATCH) {
    const slice = numbers.slice(i, i + BLOCK_BATCH);
    const withTxs = slice.filter(full);
    const bare = slice.filter((n) => !full(n));
    const [a, b] = await Promise.all([getBlocks(rpc, withTxs, true), getBlocks(rpc, bare, false)]);
    [...withTxs, ...bare].forEach((n, j) => {
      const blk = j < withTxs.length ? a[j] : b[j - withTxs.length];
      if (!blk) throw new ChainReorgedError(`block ${n} is gone (the chain reorganised or shrank)`);
      blocks.set(n, blk);
    });
  }
  // Consecutive blocks must chain, or the chain moved while we read it.
  for (let i = 1; i < numbers.length; i++) {
    const a = blocks.get(numbers[i - 1]!)!;
    const b = blocks.get(numbers[i]!)!;
    if (b.number === a.number + 1 && b.parentHash !== a.hash) throw new ChainReorgedError(`block ${b.number} does not follow block ${a.number} (the chain reorganised)`);
  }

  const txs = new Map<string, ChainTransaction>();
  for (const n of withLogs) for (const t of blocks.get(n)?.transactions ?? []) txs.set(t.hash, t);
  const missing = [...new Set(matched.map((m) => m.log.transactionHash).filter((h) => !txs.has(h)))];
  if (missing.length > 0) for (const [h, t] of await getTransactions(rpc, missing)) txs.set(h, t);
  const wantReceipt = [...new Set(matched.filter((m) => m.receipt).map((m) => m.log.transactionHash))];
  const receipts: Map<string, ChainReceipt> = wantReceipt.length > 0 ? await getReceipts(rpc, wantReceipt) : new Map();

  // One input object per block and transaction: the run sent to the worker carries each once (runCodec.ts).
  const blockInputs = new Map<number, EthereumBlockInput>();
  const inputOf = (blk: ChainBlock): EthereumBlockInput => {
    let bi = blockInputs.get(blk.number);
    if (!bi) blockInputs.set(blk.number, (bi = blockInput(blk)));
    return bi;
  };
  const txInputs = new Map<string, EthereumTransactionInput>();
  const byBlock = new Map<number, Trigger[]>();
  const triggersOf = (n: number): Trigger[] => {
    let list = byBlock.get(n);
    if (!list) byBlock.set(n, (list = []));
    return list;
  };
  for (const [n, due] of blockTriggers) {
    const bi = inputOf(blocks.get(n)!);
    for (const t of due.start) triggersOf(n).push({ kind: "block", dataSource: t.ds, handler: t.handler, block: bi });
  }
  for (const m of matched) {
    const blk = blocks.get(m.log.blockNumber)!;
    if (blk.hash !== m.log.blockHash) throw new ChainReorgedError(`log of block ${blk.number} has hash ${m.log.blockHash}, the block is ${blk.hash}`);
    const bi = inputOf(blk);
    let ti = txInputs.get(m.log.transactionHash);
    if (!ti) {
      const t = txs.get(m.log.transactionHash);
      if (!t) throw new ChainReorgedError(`transaction ${m.log.transactionHash} not found`);
      txInputs.set(m.log.transactionHash, (ti = transactionInput(t)));
    }
    triggersOf(blk.number).push({
      kind: "event",
      dataSource: m.ds,
      handler: m.handler,
      event: buildEvent({ log: m.log, block: bi, transaction: ti, parameters: m.params, receipt: m.receipt ? (receipts.get(m.log.transactionHash) ?? null) : null }),
    });
  }
  for (const r of refused) {
    const list = triggersOf(r.log.blockNumber);
    // In log order among the block's event triggers (they come after `once` block triggers).
    const at = list.findIndex((t) => t.kind === "event" && Number(t.event.logIndex) > r.log.logIndex);
    const trigger: Trigger = { kind: "refused", dataSource: r.ds, handler: "", message: r.message, logIndex: r.log.logIndex, transactionIndex: r.log.transactionIndex, transactionHash: r.log.transactionHash };
    if (at < 0) list.push(trigger);
    else list.splice(at, 0, trigger);
  }
  for (const [n, due] of blockTriggers) {
    const bi = inputOf(blocks.get(n)!);
    for (const t of due.end) triggersOf(n).push({ kind: "block", dataSource: t.ds, handler: t.handler, block: bi });
  }

  let jobs: BlockJob[] = [...byBlock.keys()].sort((a, b) => a - b).map((n) => ({ ptr: jobPtr(blocks.get(n)!), triggers: byBlock.get(n)! }));
  if (traced.size > 0) {
    const calls = await callJobs(rpc, callSources, [...traced].map((n) => blocks.get(n)!), inputOf, txInputs);
    jobs = mergeJobs(jobs, calls.jobs, dataSources);
    return { jobs, end: jobPtr(blocks.get(toBlock)!), events: matched.length + calls.count };
  }
  const last = blocks.get(toBlock)!;
  return { jobs, end: jobPtr(last), events: matched.length };
}

/**
 * The call triggers of `blocks` (each transaction traced): a call handler per call to a data source's
 * address whose selector it handles, and a `filter: {kind: call}` block handler once per block with
 * any call to its address. Ordered by mergeJobs: after the logs of the same transaction.
 */
async function callJobs(
  rpc: RpcClient,
  sources: LoaderDataSource[],
  blocks: ChainBlock[],
  inputOf: (b: ChainBlock) => EthereumBlockInput,
  txInputs: Map<string, EthereumTransactionInput>,
): Promise<{ jobs: BlockJob[]; count: number }> {
  const jobs: BlockJob[] = [];
  let count = 0;
  for (const blk of blocks) {
    const triggers: Trigger[] = [];
    const called = new Set<number>();
    const txs = blk.transactions ?? [];
    const traces = await Promise.all(txs.map((t) => tracedCalls(rpc, t.hash)));
    txs.forEach((tx, i) => {
      for (const c of traces[i]!) {
        for (const ds of sources) {
          if (!active(ds, blk.number) || ds.address !== c.to) continue;
          called.add(ds.index);
          const decoded = ds.calls?.decode(c) ?? null;
          if (!decoded) continue;
          let ti = txInputs.get(tx.hash);
          if (!ti) txInputs.set(tx.hash, (ti = transactionInput(tx)));
          triggers.push({ kind: "call", dataSource: ds.index, handler: decoded.handler, seq: c.seq, call: { to: c.to, from: c.from, block: inputOf(blk), transaction: ti, inputValues: decoded.inputs, outputValues: decoded.outputs } });
          count++;
        }
      }
    });
    for (const ds of sources) {
      const handler = ds.blockHandlers.find((h) => h.filter?.kind === "call");
      if (handler && called.has(ds.index)) triggers.push({ kind: "block", dataSource: ds.index, handler: handler.handler, block: inputOf(blk) });
    }
    if (triggers.length > 0) jobs.push({ ptr: jobPtr(blk), triggers });
  }
  return { jobs, count };
}

export function jobPtr(b: ChainBlock): JobBlockPtr {
  return { number: b.number, hash: b.hash, timestamp: Number(b.timestamp), parentHash: b.parentHash };
}
