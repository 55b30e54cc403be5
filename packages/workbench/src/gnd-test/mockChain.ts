// The chain a test file describes, built as `gnd test` builds it (gnd/src/commands/test/trigger.rs):
// blocks numbered from the manifest's lowest startBlock (or as given), hash keccak256 of the number's 8
// big-endian bytes, timestamp = number; each event a log with its index in the block and, unless given,
// the transaction hash keccak256(number || log index); one dummy transaction per distinct hash (from and
// to zero, value and gas 0), and receipts whose logs are that transaction's logs. Mocked eth_calls,
// balances and code are keyed by block, as gnd's mock transport keys them by block hash.
//
// Numbers between two of the file's blocks are empty blocks here, so the chain stays linked for the
// local node (each parentHash is the block before). gnd feeds only the file's blocks: a block handler
// without a filter also runs on those in-between blocks here, and the first block's parent is the empty
// block before it rather than gnd's zero hash.
import { keccak256 } from "ethers";
import { encodeCall, encodeEvent, encodeReturns, functionFragment } from "./abiJson.js";
import { GndTestError, type TestFile } from "./testFile.js";

export interface MockLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: number;
  transactionHash: string;
}

export interface MockBlock {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  logs: MockLog[];
  /** Distinct transaction hashes in the order their first log appears. */
  transactions: string[];
}

export interface MockChain {
  head: number;
  /** The file's blocks by number; other numbers up to the head are empty blocks. */
  block(number: number): MockBlock | null;
  blockByHash(hash: string): MockBlock | null;
  /** `${block}:${address}:${calldata}` -> return data, or "revert". */
  calls: Map<string, string>;
  balances: Map<string, bigint>;
  code: Map<string, boolean>;
  /** The numbers of the file's own blocks, in order. */
  fileBlocks: number[];
}

export const ZERO_HASH = `0x${"0".repeat(64)}`;

function u64(n: number | bigint): string {
  return BigInt(n).toString(16).padStart(16, "0");
}

export function defaultBlockHash(number: number): string {
  return keccak256(`0x${u64(number)}`);
}

export function defaultTransactionHash(number: number, logIndex: number): string {
  return keccak256(`0x${u64(number)}${u64(logIndex)}`);
}

export const mockKey = (block: number, address: string, rest = "") => `${block}:${address.toLowerCase()}${rest ? `:${rest}` : ""}`;

export function buildMockChain(test: TestFile, startBlock: number): MockChain {
  const own = new Map<number, MockBlock>();
  const calls = new Map<string, string>();
  const balances = new Map<string, bigint>();
  const code = new Map<string, boolean>();
  let next = startBlock;
  let previous: MockBlock | null = null;
  for (const [i, b] of test.blocks.entries()) {
    const where = `blocks[${i}]`;
    const number = b.number ?? next;
    if (previous && number <= previous.number) throw new GndTestError(`${where}: block number ${number} does not follow block ${previous.number}`);
    if (number > 2 ** 31 - 1) throw new GndTestError(`${where}: block number ${number} exceeds i32::MAX`);
    const hash = b.hash ?? defaultBlockHash(number);
    const logs = b.events.map((e, logIndex) => ({
      address: e.address,
      ...encodeEvent(e.event, e.params, `${where}.events[${logIndex}]`),
      logIndex,
      transactionHash: e.txHash ?? defaultTransactionHash(number, logIndex),
    }));
    const block: MockBlock = {
      number,
      hash,
      parentHash: previous && previous.number === number - 1 ? previous.hash : number === 0 ? ZERO_HASH : defaultBlockHash(number - 1),
      timestamp: b.timestamp ?? number,
      logs,
      transactions: [...new Set(logs.map((l) => l.transactionHash))],
    };
    own.set(number, block);
    for (const [c, call] of b.ethCalls.entries()) {
      const at = `${where}.ethCalls[${c}]`;
      const fragment = functionFragment(call.function, at);
      calls.set(mockKey(number, call.address, encodeCall(fragment, call.params, at)), call.reverts ? "revert" : encodeReturns(fragment, call.returns, at));
    }
    for (const [c, call] of b.getBalanceCalls.entries()) {
      if (!/^\d+$/.test(call.value)) throw new GndTestError(`${where}.getBalanceCalls[${c}].value: expected a decimal number of wei, got ${JSON.stringify(call.value)}`);
      balances.set(mockKey(number, call.address), BigInt(call.value));
    }
    for (const call of b.hasCodeCalls) code.set(mockKey(number, call.address), call.hasCode);
    previous = block;
    next = number + 1;
  }
  const head = previous?.number ?? startBlock;
  const byHash = new Map([...own.values()].map((b) => [b.hash, b]));
  const block = (number: number): MockBlock | null => {
    if (number < 0 || number > head) return null;
    const found = own.get(number);
    if (found) return found;
    const after = own.get(number + 1);
    // An empty block between two of the file's: linked to its neighbours.
    return { number, hash: after ? after.parentHash : defaultBlockHash(number), parentHash: number === 0 ? ZERO_HASH : (own.get(number - 1)?.hash ?? defaultBlockHash(number - 1)), timestamp: number, logs: [], transactions: [] };
  };
  return {
    head,
    block,
    blockByHash: (hash) => {
      const found = byHash.get(hash.toLowerCase());
      if (found) return found;
      // Empty blocks have keccak(number) hashes; they are only asked for by number in practice.
      return null;
    },
    calls,
    balances,
    code,
    fileBlocks: [...own.keys()],
  };
}
