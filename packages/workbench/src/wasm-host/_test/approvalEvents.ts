// Synthetic Approval(owner, spender, value) events as the indexer hands them to the host.
import type { EthereumBlockInput, EthereumEventInput, EthereumTransactionInput } from "../types.js";

const ZERO32 = "0x" + "00".repeat(32);

export function syntheticBlock(number: number): EthereumBlockInput {
  return {
    hash: "0x" + number.toString(16).padStart(64, "0"),
    parentHash: "0x" + Math.max(0, number - 1).toString(16).padStart(64, "0"),
    unclesHash: ZERO32,
    author: "0x" + "00".repeat(20),
    stateRoot: ZERO32,
    transactionsRoot: ZERO32,
    receiptsRoot: ZERO32,
    number,
    gasUsed: 21_000,
    gasLimit: 30_000_000,
    timestamp: 1_700_000_000 + number,
    difficulty: 0,
    totalDifficulty: 0,
    size: null,
    baseFeePerGas: 1_000_000_000n,
  };
}

export function syntheticTransaction(block: number, index: number): EthereumTransactionInput {
  return {
    hash: "0x" + block.toString(16).padStart(32, "0") + index.toString(16).padStart(32, "0"),
    index,
    from: "0x1111111111111111111111111111111111111111",
    to: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a",
    value: 0,
    gasLimit: 100_000,
    gasPrice: 1_000_000_000,
    input: "0x",
    nonce: index,
  };
}

export function approvalEvent(
  block: EthereumBlockInput,
  transaction: EthereumTransactionInput,
  logIndex: number,
  owner: string,
  spender: string,
  value: bigint,
): EthereumEventInput {
  return {
    address: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a",
    logIndex,
    transactionLogIndex: logIndex,
    logType: null,
    block,
    transaction,
    parameters: [
      { name: "owner", value: { kind: "address", value: owner } },
      { name: "spender", value: { kind: "address", value: spender } },
      { name: "value", value: { kind: "uint", value } },
    ],
    receipt: null,
  };
}
