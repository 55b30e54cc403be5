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
import type { EventParamInput } from "../../wasm-host/index.js";
import type { BlockJob, JobBlockPtr, LoadedTrigger, Trigger } from "./hostProtocol.js";
import { EventValuePacker } from "./runCodec.js";
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

/**
 * A matched log, as the range keeps it while its blocks are fetched: its event's body packed (`body`), or
 * the log and its parameters where the body cannot be packed or the handler asks for the receipt.
 */
type Matched = {
  blockNumber: number;
  blockHash: string;
  transactionHash: string;
  logIndex: number;
  ds: number;
  handler: string;
  names: readonly string[];
  body: { at: number; end: number } | null;
  unpacked: { log: ChainLog; params: EventParamInput[]; receipt: boolean } | null;
};
type Refused = { log: ChainLog; ds: number; message: string };
type BlockDue = Map<number, { start: BlockTrigger[]; end: BlockTrigger[] }>;

// loadRange's stages are functions of their own: each hot loop is optimised by V8 alone and once. As one
// function, loadRange was optimised mid-loop and thrown away again at each new path, four times a catch-up.

/**
 * The logs' handlers by data source, in log order; logs that match two handlers of a data source are
 * refused. Each event's body is packed as it is matched: the logs themselves are not kept.
 */
function matchLogs(dataSources: LoaderDataSource[], logs: ChainLog[], packer: EventValuePacker): { matched: Matched[]; refused: Refused[] } {
  const sorted = logs.filter((l) => !l.removed).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  const matched: Matched[] = [];
  // graph-node runs at most one handler per log and data source; a second match fails the subgraph.
  const refused: Refused[] = [];
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
        const body = m.handler.receipt ? null : packer.pack(log.address, m.parameters);
        const unpacked = body ? null : { log, params: m.parameters, receipt: m.handler.receipt };
        matched.push({ blockNumber: log.blockNumber, blockHash: log.blockHash, transactionHash: log.transactionHash, logIndex: log.logIndex, ds: ds.index, handler: m.handler.handler, names: m.names, body, unpacked });
      }
    }
  }
  return { matched, refused };
}

/** The blocks of the range with block handlers due. */
function blockHandlersDue(dataSources: LoaderDataSource[], fromBlock: number, toBlock: number): BlockDue {
  const due: BlockDue = new Map();
  if (!dataSources.some((d) => d.blockHandlers.length > 0)) return due;
  for (let n = fromBlock; n <= toBlock; n++) {
    const at = blockTriggersAt(dataSources, n);
    if (at.start.length > 0 || at.end.length > 0) due.set(n, at);
  }
  return due;
}

/** The blocks numbered, with their transactions where `full`, checked to chain where consecutive. */
async function fetchBlocks(rpc: RpcClient, numbers: number[], full: (n: number) => boolean): Promise<Map<number, ChainBlock>> {
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
  return blocks;
}

/** The matched logs' transactions: from their blocks, and fetched where a block did not carry one. */
async function transactionsOf(rpc: RpcClient, matched: Matched[], withLogs: Set<number>, blocks: Map<number, ChainBlock>): Promise<Map<string, ChainTransaction>> {
  const txs = new Map<string, ChainTransaction>();
  for (const n of withLogs) for (const t of blocks.get(n)?.transactions ?? []) txs.set(t.hash, t);
  const missing = [...new Set(matched.map((m) => m.transactionHash).filter((h) => !txs.has(h)))];
  if (missing.length > 0) for (const [h, t] of await getTransactions(rpc, missing)) txs.set(h, t);
  return txs;
}

/** Builds one trigger list per block; each block and transaction becomes one input object, shared. */
class TriggerLists {
  private readonly byBlock = new Map<number, LoadedTrigger[]>();
  // One input object per block and transaction: the run sent to the worker carries each once (runCodec.ts).
  private readonly blockInputs = new Map<number, EthereumBlockInput>();
  readonly txInputs = new Map<string, EthereumTransactionInput>();

  of(n: number): LoadedTrigger[] {
    let list = this.byBlock.get(n);
    if (!list) this.byBlock.set(n, (list = []));
    return list;
  }

  inputOf(blk: ChainBlock): EthereumBlockInput {
    let bi = this.blockInputs.get(blk.number);
    if (!bi) this.blockInputs.set(blk.number, (bi = blockInput(blk)));
    return bi;
  }

  addBlockTriggers(due: BlockDue, blocks: Map<number, ChainBlock>, which: "start" | "end"): void {
    for (const [n, at] of due) {
      const bi = this.inputOf(blocks.get(n)!);
      for (const t of at[which]) this.of(n).push({ kind: "block", dataSource: t.ds, handler: t.handler, block: bi });
    }
  }

  addEvents(matched: Matched[], packer: EventValuePacker, blocks: Map<number, ChainBlock>, txs: Map<string, ChainTransaction>, receipts: Map<string, ChainReceipt>): void {
    for (const m of matched) {
      const blk = blocks.get(m.blockNumber)!;
      if (blk.hash !== m.blockHash) throw new ChainReorgedError(`log of block ${blk.number} has hash ${m.blockHash}, the block is ${blk.hash}`);
      const bi = this.inputOf(blk);
      let ti = this.txInputs.get(m.transactionHash);
      if (!ti) {
        const t = txs.get(m.transactionHash);
        if (!t) throw new ChainReorgedError(`transaction ${m.transactionHash} not found`);
        this.txInputs.set(m.transactionHash, (ti = transactionInput(t)));
      }
      const list = this.of(blk.number);
      if (m.body) {
        list.push({ kind: "loadedEvent", dataSource: m.ds, handler: m.handler, block: bi, transaction: ti, logIndex: m.logIndex, names: m.names, packed: packer, at: m.body.at, end: m.body.end });
        continue;
      }
      const { log, params, receipt } = m.unpacked!;
      list.push({
        kind: "event",
        dataSource: m.ds,
        handler: m.handler,
        event: buildEvent({ log, block: bi, transaction: ti, parameters: params, receipt: receipt ? (receipts.get(log.transactionHash) ?? null) : null }),
      });
    }
  }

  addRefused(refused: Refused[]): void {
    for (const r of refused) {
      const list = this.of(r.log.blockNumber);
      // In log order among the block's event triggers (they come after `once` block triggers).
      const at = list.findIndex((t) => (t.kind === "loadedEvent" ? t.logIndex : t.kind === "event" ? Number(t.event.logIndex) : -1) > r.log.logIndex);
      const trigger: Trigger = { kind: "refused", dataSource: r.ds, handler: "", message: r.message, logIndex: r.log.logIndex, transactionIndex: r.log.transactionIndex, transactionHash: r.log.transactionHash };
      if (at < 0) list.push(trigger);
      else list.splice(at, 0, trigger);
    }
  }

  jobs(blocks: Map<number, ChainBlock>): BlockJob[] {
    return [...this.byBlock.keys()].sort((a, b) => a - b).map((n) => ({ ptr: jobPtr(blocks.get(n)!), triggers: this.byBlock.get(n)! }));
  }
}

/**
 * Loads a range of `logs`. Not an async function, whose suspended frame would keep `logs` alive: they are
 * matched and packed before anything is fetched, and dropped.
 */
export function loadRange(rpc: RpcClient, dataSources: LoaderDataSource[], logs: ChainLog[], fromBlock: number, toBlock: number): Promise<LoadedRange> {
  // Match first: only blocks with a handled log need a full fetch.
  const packer = new EventValuePacker();
  let found: ReturnType<typeof matchLogs>;
  try {
    found = matchLogs(dataSources, logs, packer);
  } catch (err) {
    return Promise.reject(err);
  }
  packer.finish();
  return loadMatched(rpc, dataSources, found.matched, found.refused, packer, fromBlock, toBlock);
}

async function loadMatched(rpc: RpcClient, dataSources: LoaderDataSource[], matched: Matched[], refused: Refused[], packer: EventValuePacker, fromBlock: number, toBlock: number): Promise<LoadedRange> {
  const due = blockHandlersDue(dataSources, fromBlock, toBlock);

  const withLogs = new Set(matched.map((m) => m.blockNumber));
  // Call handlers need every block's transactions, to trace them.
  const callSources = dataSources.filter((d) => !d.file && tracesCalls(d));
  const traced = new Set<number>();
  if (callSources.length > 0) for (let n = fromBlock; n <= toBlock; n++) if (callSources.some((d) => active(d, n))) traced.add(n);
  const numbers = [...new Set([...withLogs, ...traced, ...refused.map((r) => r.log.blockNumber), ...due.keys(), toBlock])].sort((a, b) => a - b);
  const blocks = await fetchBlocks(rpc, numbers, (n) => withLogs.has(n) || traced.has(n));

  const txs = await transactionsOf(rpc, matched, withLogs, blocks);
  const wantReceipt = [...new Set(matched.filter((m) => m.unpacked?.receipt).map((m) => m.transactionHash))];
  const receipts: Map<string, ChainReceipt> = wantReceipt.length > 0 ? await getReceipts(rpc, wantReceipt) : new Map();

  const lists = new TriggerLists();
  lists.addBlockTriggers(due, blocks, "start");
  lists.addEvents(matched, packer, blocks, txs, receipts);
  lists.addRefused(refused);
  lists.addBlockTriggers(due, blocks, "end");

  const end = jobPtr(blocks.get(toBlock)!);
  if (traced.size === 0) return { jobs: lists.jobs(blocks), end, events: matched.length };
  const calls = await callJobs(rpc, callSources, [...traced].map((n) => blocks.get(n)!), (b) => lists.inputOf(b), lists.txInputs);
  return { jobs: mergeJobs(lists.jobs(blocks), calls.jobs, dataSources), end, events: matched.length + calls.count };
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
