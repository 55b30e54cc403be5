// The blocks of graph-node's runner tests (tests/src/fixture/ethereum.rs), as a chain served over
// JSON-RPC: `test_ptr(n)` hashes (n as a 32-byte big-endian number, a reorg's number in the top 4
// bytes), each block with one dummy transaction of hash zero, and `push_test_log`'s logs: address zero,
// topic `TestEvent(string)`, the payload ABI-encoded, transaction hash zero.
import { AbiCoder, id } from "ethers";
import { ZERO_HASH, type MockBlock, type MockChain } from "subgraph-workbench/gnd-test";

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;
const TEST_EVENT = id("TestEvent(string)");

/** `test_ptr_reorged(n, reorg)`'s hash. */
export function testHash(n: number, reorg = 0): string {
  const low = BigInt(n).toString(16).padStart(56, "0");
  return `0x${reorg.toString(16).padStart(8, "0")}${low}`;
}

export interface RunnerBlock {
  number: number;
  /** `push_test_log` payloads, in order. */
  logs?: string[];
  /** `test_ptr_reorged(number, reorg)`'s hash instead of `test_ptr(number)`'s. */
  reorg?: number;
  /** Seconds since the epoch (the fixture's default is the block's number). */
  timestamp?: number;
  /** A hash given outright (the Rust tests' `B256::from(U256::from(12))` for a reorged block 1). */
  hash?: string;
}

/** The chain the mock JSON-RPC serves, which a test may replace by a branch (a reorg). */
export interface RunnerChain extends MockChain {
  /** Serves `blocks` from now on; blocks of the earlier branches still answer by hash, as uncles do. */
  switchTo(blocks: RunnerBlock[]): void;
}

/** A linear chain of `blocks` (genesis first), each block's parent the one before. */
export function runnerChain(blocks: RunnerBlock[]): RunnerChain {
  let served = linearChain(blocks);
  const orphans = new Map<string, MockBlock>();
  return {
    get head() {
      return served.head;
    },
    get fileBlocks() {
      return served.fileBlocks;
    },
    block: (n) => served.block(n),
    blockByHash: (h) => served.blockByHash(h) ?? orphans.get(h.toLowerCase()) ?? null,
    calls: new Map(),
    balances: new Map(),
    code: new Map(),
    switchTo(next) {
      for (const n of served.fileBlocks) {
        const b = served.block(n);
        if (b) orphans.set(b.hash, b);
      }
      served = linearChain(next);
    },
  };
}

function linearChain(blocks: RunnerBlock[]): MockChain {
  const byNumber = new Map<number, MockBlock>();
  let parent = ZERO_HASH;
  for (const b of blocks) {
    const hash = b.hash ?? testHash(b.number, b.reorg ?? 0);
    byNumber.set(b.number, {
      number: b.number,
      hash,
      parentHash: parent,
      timestamp: b.timestamp ?? b.number,
      logs: (b.logs ?? []).map((payload, logIndex) => ({ address: ZERO_ADDRESS, topics: [TEST_EVENT], data: AbiCoder.defaultAbiCoder().encode(["string"], [payload]), logIndex, transactionHash: ZERO_HASH })),
      transactions: [ZERO_HASH],
    });
    parent = hash;
  }
  const byHash = new Map([...byNumber.values()].map((b) => [b.hash, b]));
  const numbers = [...byNumber.keys()].sort((a, b) => a - b);
  return {
    head: numbers.at(-1) ?? 0,
    block: (n) => byNumber.get(n) ?? null,
    blockByHash: (h) => byHash.get(h.toLowerCase()) ?? null,
    calls: new Map(),
    balances: new Map(),
    code: new Map(),
    fileBlocks: numbers,
  };
}

/** Genesis and empty blocks 1..n. */
export const emptyBlocks = (n: number): RunnerBlock[] => Array.from({ length: n + 1 }, (_, i) => ({ number: i }));
