// Builds the apiVersion 0.0.7 `ethereum.Event` input from a log, its block, its transaction and
// (only for handlers declared with `receipt: true`) its receipt.
import type { EthereumBlockInput, EthereumEventInput, EthereumLogInput, EthereumReceiptInput, EthereumTransactionInput, EventParamInput } from "../../wasm-host/index.js";
import type { ChainBlock, ChainLog, ChainReceipt, ChainTransaction } from "../chain/index.js";

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

export function blockInput(b: ChainBlock): EthereumBlockInput {
  return {
    hash: b.hash,
    parentHash: b.parentHash,
    unclesHash: b.unclesHash,
    author: b.author,
    stateRoot: b.stateRoot,
    transactionsRoot: b.transactionsRoot,
    receiptsRoot: b.receiptsRoot,
    number: BigInt(b.number),
    gasUsed: b.gasUsed,
    gasLimit: b.gasLimit,
    timestamp: b.timestamp,
    difficulty: b.difficulty,
    totalDifficulty: b.totalDifficulty,
    size: b.size,
    baseFeePerGas: b.baseFeePerGas,
  };
}

export function transactionInput(t: ChainTransaction): EthereumTransactionInput {
  return { hash: t.hash, index: t.index, from: t.from, to: t.to, value: t.value, gasLimit: t.gasLimit, gasPrice: t.gasPrice, input: t.input, nonce: t.nonce };
}

function blockNumberBytes(n: number): string {
  const hex = n.toString(16);
  return `0x${hex.length % 2 === 0 ? hex : `0${hex}`}`;
}

function logInput(l: ChainLog, transactionLogIndex: number): EthereumLogInput {
  return {
    address: l.address,
    topics: l.topics,
    data: l.data,
    blockHash: l.blockHash,
    blockNumber: blockNumberBytes(l.blockNumber),
    transactionHash: l.transactionHash,
    transactionIndex: BigInt(l.transactionIndex),
    logIndex: BigInt(l.logIndex),
    transactionLogIndex: BigInt(transactionLogIndex),
    logType: "",
    removed: l.removed,
  };
}

export function receiptInput(r: ChainReceipt): EthereumReceiptInput {
  return {
    transactionHash: r.transactionHash,
    transactionIndex: r.transactionIndex,
    blockHash: r.blockHash,
    blockNumber: r.blockNumber,
    cumulativeGasUsed: r.cumulativeGasUsed,
    gasUsed: r.gasUsed,
    contractAddress: r.contractAddress ?? ZERO_ADDRESS,
    logs: r.logs.map((l, i) => logInput(l, i)),
    status: r.status,
    root: r.root,
    logsBloom: r.logsBloom,
  };
}

export interface EventParts {
  log: ChainLog;
  block: EthereumBlockInput;
  transaction: EthereumTransactionInput;
  parameters: EventParamInput[];
  receipt: ChainReceipt | null;
}

export function buildEvent(parts: EventParts): EthereumEventInput {
  const { log } = parts;
  const event: EthereumEventInput = {
    address: log.address,
    logIndex: BigInt(log.logIndex),
    // graph-node fills transactionLogIndex with the log's block-level index too.
    transactionLogIndex: BigInt(log.logIndex),
    logType: null,
    block: parts.block,
    transaction: parts.transaction,
    parameters: parts.parameters,
  };
  if (parts.receipt) event.receipt = receiptInput(parts.receipt);
  return event;
}
