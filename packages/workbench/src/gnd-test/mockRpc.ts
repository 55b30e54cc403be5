// The mock chain as an Ethereum JSON-RPC server on 127.0.0.1, the only thing the local node talks to
// for chain data: blocks, logs (with address and topic filters), transactions and receipts as gnd's
// mock block stream gives them, and the file's eth_call / eth_getBalance / eth_getCode mocks. A call
// with no mock is answered with an error and remembered, so the runner fails the test at once with gnd's
// message instead of letting the node retry it.
import { readText, sendJson, serve, type RunningServer } from "../lib/http/index.js";
import { mockKey, ZERO_HASH, type MockBlock, type MockChain, type MockLog } from "./mockChain.js";

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;
const EMPTY_ROOT = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
const EMPTY_BLOOM = `0x${"0".repeat(512)}`;
const EMPTY_OMMERS = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";

export interface MockRpc {
  url: string;
  /** gnd's words for each call the file does not mock, in the order they were asked. */
  unmocked: string[];
  close(): Promise<void>;
}

interface Request {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const hex = (n: number | bigint) => `0x${n.toString(16)}`;

export async function startMockRpc(chain: MockChain): Promise<MockRpc> {
  const unmocked: string[] = [];

  function blockNumberOf(tag: unknown): number {
    if (tag === "latest" || tag === "pending" || tag === "safe" || tag === "finalized" || tag === undefined) return chain.head;
    if (tag === "earliest") return 0;
    if (typeof tag === "string" && /^0x[0-9a-f]+$/i.test(tag)) return Number.parseInt(tag, 16);
    if (typeof tag === "object" && tag !== null && "blockHash" in tag) {
      const found = chain.blockByHash(String((tag as { blockHash: unknown }).blockHash));
      if (found) return found.number;
    }
    throw new RpcFailure(-32602, `invalid block tag ${JSON.stringify(tag)}`);
  }

  function logJson(block: MockBlock, log: MockLog) {
    return {
      address: log.address,
      topics: log.topics,
      data: log.data,
      blockNumber: hex(block.number),
      blockHash: block.hash,
      transactionHash: log.transactionHash,
      // gnd gives every log transaction index 0.
      transactionIndex: "0x0",
      logIndex: hex(log.logIndex),
      removed: false,
    };
  }

  function transactionJson(block: MockBlock, hash: string) {
    return {
      hash,
      blockHash: block.hash,
      blockNumber: hex(block.number),
      transactionIndex: hex(block.transactions.indexOf(hash)),
      from: ZERO_ADDRESS,
      to: null,
      value: "0x0",
      gas: "0x0",
      gasPrice: "0x0",
      input: "0x",
      nonce: "0x0",
      type: "0x0",
      // A legacy transaction's signature fields: graph-node's decoder requires them.
      v: "0x1b",
      r: "0x1",
      s: "0x1",
    };
  }

  function blockJson(block: MockBlock, full: boolean) {
    return {
      number: hex(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: hex(block.timestamp),
      miner: ZERO_ADDRESS,
      sha3Uncles: EMPTY_OMMERS,
      stateRoot: EMPTY_ROOT,
      transactionsRoot: EMPTY_ROOT,
      receiptsRoot: EMPTY_ROOT,
      gasUsed: "0x0",
      gasLimit: "0x0",
      difficulty: "0x0",
      size: "0x0",
      extraData: "0x",
      // Fields every Ethereum client answers, which graph-node's block decoder requires.
      logsBloom: EMPTY_BLOOM,
      mixHash: ZERO_HASH,
      nonce: "0x0000000000000000",
      totalDifficulty: "0x0",
      transactions: full ? block.transactions.map((h) => transactionJson(block, h)) : block.transactions,
      uncles: [],
    };
  }

  function findTransaction(hash: string): MockBlock | null {
    for (const number of chain.fileBlocks) {
      const block = chain.block(number);
      if (block?.transactions.includes(hash)) return block;
    }
    return null;
  }

  function receiptJson(block: MockBlock, hash: string) {
    return {
      transactionHash: hash,
      transactionIndex: hex(block.transactions.indexOf(hash)),
      blockHash: block.hash,
      blockNumber: hex(block.number),
      from: ZERO_ADDRESS,
      to: null,
      cumulativeGasUsed: hex(21_000),
      gasUsed: hex(21_000),
      effectiveGasPrice: "0x0",
      contractAddress: null,
      status: "0x1",
      type: "0x2",
      logsBloom: EMPTY_BLOOM,
      logs: block.logs.filter((l) => l.transactionHash === hash).map((l) => logJson(block, l)),
    };
  }

  function getLogs(filter: Record<string, unknown>) {
    let numbers: number[];
    if (typeof filter.blockHash === "string") {
      const block = chain.blockByHash(filter.blockHash);
      numbers = block ? [block.number] : [];
    } else {
      const from = blockNumberOf(filter.fromBlock ?? "earliest");
      const to = Math.min(blockNumberOf(filter.toBlock ?? "latest"), chain.head);
      numbers = chain.fileBlocks.filter((n) => n >= from && n <= to);
    }
    const addresses = filter.address === undefined || filter.address === null ? null : (Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => String(a).toLowerCase());
    const topics = Array.isArray(filter.topics) ? (filter.topics as unknown[]) : [];
    const out = [];
    for (const n of numbers) {
      const block = chain.block(n);
      if (!block) continue;
      for (const log of block.logs) {
        if (addresses && !addresses.includes(log.address)) continue;
        const matches = topics.every((wanted, i) => {
          if (wanted === null || wanted === undefined) return true;
          const options = (Array.isArray(wanted) ? wanted : [wanted]).map((t) => String(t).toLowerCase());
          return log.topics[i] !== undefined && options.includes(log.topics[i]!);
        });
        if (matches) out.push(logJson(block, log));
      }
    }
    return out;
  }

  function answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case "eth_chainId":
        return "0x1";
      case "net_version":
        return "1";
      case "eth_blockNumber":
        return hex(chain.head);
      case "eth_getBlockByNumber": {
        const block = chain.block(blockNumberOf(params[0]));
        return block ? blockJson(block, params[1] === true) : null;
      }
      case "eth_getBlockByHash": {
        const block = chain.blockByHash(String(params[0]));
        return block ? blockJson(block, params[1] === true) : null;
      }
      case "eth_getLogs":
        return getLogs((params[0] ?? {}) as Record<string, unknown>);
      case "eth_getTransactionByHash": {
        const hash = String(params[0]).toLowerCase();
        const block = findTransaction(hash);
        return block ? transactionJson(block, hash) : null;
      }
      case "eth_getTransactionReceipt": {
        const hash = String(params[0]).toLowerCase();
        const block = findTransaction(hash);
        return block ? receiptJson(block, hash) : null;
      }
      case "eth_getBlockReceipts": {
        // One receipt per transaction of the block: the runner tests' blocks all carry a transaction of
        // hash zero, which only a block-scoped lookup can tell apart.
        const tag = params[0];
        const block = typeof tag === "string" && /^0x[0-9a-f]{64}$/i.test(tag) ? chain.blockByHash(tag) : chain.block(blockNumberOf(tag));
        return block ? block.transactions.map((h) => receiptJson(block, h)) : null;
      }
      case "eth_call": {
        const call = (params[0] ?? {}) as { to?: unknown; data?: unknown; input?: unknown };
        const to = String(call.to ?? "").toLowerCase();
        const data = String(call.data ?? call.input ?? "0x").toLowerCase();
        const number = blockNumberOf(params[1]);
        const mocked = chain.calls.get(mockKey(number, to, data));
        if (mocked === "revert") throw new RpcFailure(3, "execution reverted");
        if (mocked !== undefined) return mocked;
        const block = chain.block(number);
        unmocked.push(`gnd test: unmocked eth_call to ${to} at block hash ${block?.hash ?? hex(number)}\nAdd a matching 'ethCalls' entry to this block in your test JSON.`);
        throw new RpcFailure(-32000, `gnd test: unmocked eth_call to ${to} at block ${number}`);
      }
      case "eth_getBalance": {
        const number = blockNumberOf(params[1]);
        const value = chain.balances.get(mockKey(number, String(params[0])));
        if (value !== undefined) return hex(value);
        unmocked.push(`gnd test: no mock getBalance entry for address ${String(params[0]).toLowerCase()} at block hash ${chain.block(number)?.hash ?? hex(number)}. Add a 'getBalanceCalls' entry to this block in your test JSON.`);
        throw new RpcFailure(-32000, "gnd test: no mock getBalance entry");
      }
      case "eth_getCode": {
        const number = blockNumberOf(params[1]);
        const has = chain.code.get(mockKey(number, String(params[0])));
        if (has !== undefined) return has ? "0x00" : "0x";
        unmocked.push(`gnd test: no mock hasCode entry for address ${String(params[0]).toLowerCase()} at block hash ${chain.block(number)?.hash ?? hex(number)}. Add a 'hasCodeCalls' entry to this block in your test JSON.`);
        throw new RpcFailure(-32000, "gnd test: no mock hasCode entry");
      }
      default:
        throw new RpcFailure(-32601, `the method ${method} does not exist/is not available (gnd test mocks blocks, logs, receipts, eth_call, eth_getBalance and eth_getCode)`);
    }
  }

  function handle(request: Request) {
    const id = request.id ?? null;
    try {
      if (typeof request.method !== "string") throw new RpcFailure(-32600, "invalid request");
      return { jsonrpc: "2.0", id, result: answer(request.method, Array.isArray(request.params) ? request.params : []) };
    } catch (error) {
      const failure = error instanceof RpcFailure ? error : new RpcFailure(-32603, (error as Error).message);
      return { jsonrpc: "2.0", id, error: { code: failure.code, message: failure.message } };
    }
  }

  const server: RunningServer = await serve(
    async (req, res) => {
      let body: unknown;
      try {
        body = JSON.parse(await readText(req, { maxBytes: 16 * 1024 * 1024 }));
      } catch {
        sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
        return;
      }
      sendJson(res, 200, Array.isArray(body) ? body.map((r) => handle(r as Request)) : handle(body as Request));
    },
    { loopbackOnly: true },
  );
  return { url: server.url, unmocked, close: () => server.close() };
}
