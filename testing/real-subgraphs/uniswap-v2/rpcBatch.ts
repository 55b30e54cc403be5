// Many transactions at once on a Hardhat chain with automine off: eth_sendTransaction in JSON-RPC batch
// requests from its unlocked accounts (nonces counted here), each block mined by evm_mine once it holds
// as many as fit, and every receipt read back at the end. One HTTP request carries hundreds of
// transactions, which is what makes tens of thousands of router calls take seconds rather than minutes.
import { request as httpRequest } from "node:http";

export interface PlannedTx {
  from: string;
  to: string;
  data: string;
  gas: bigint;
  value?: bigint;
}

export interface RpcBatcher {
  request<T>(method: string, params: unknown[]): Promise<T>;
  /** One method with many parameter lists, in batches; answers in the same order (an error throws). */
  requestMany<T>(method: string, paramsList: unknown[][]): Promise<T[]>;
  /** Sends the transactions in order, mining a block (`secondsPerBlock` after the last) every `perBlock`; answers their hashes. */
  sendInBlocks(txs: PlannedTx[], options: { perBlock: number; secondsPerBlock: number }): Promise<string[]>;
  /** Throws naming the first transaction that is not mined or failed. */
  expectMined(hashes: string[]): Promise<{ blocks: number }>;
}

const BATCH = 500;
// A fee cap far above the chain's base fee, and no tip: the order within a block is the order sent.
const MAX_FEE = 100n * 10n ** 9n;

interface RpcAnswer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * One POST on a connection of its own: the chain's server closes idle keep-alive connections after a
 * few seconds, and a request sent on one as it closes is lost ("other side closed"), which must never
 * happen to a batch of transactions.
 */
function postOnce(url: string, body: string, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${url} answered HTTP ${res.statusCode ?? "?"} to ${what}: ${text.slice(0, 300)}`))));
      res.on("error", reject);
    });
    req.on("error", (error) => reject(new Error(`${url} did not answer ${what}: ${error.message}`)));
    req.end(body);
  });
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

export function createRpcBatcher(url: string): RpcBatcher {
  const nonces = new Map<string, number>();
  let id = 0;
  const post = async (calls: { method: string; params: unknown[] }[]): Promise<RpcAnswer[]> => {
    const body = calls.map((c) => ({ jsonrpc: "2.0", id: ++id, method: c.method, params: c.params }));
    const answers = JSON.parse(await postOnce(url, JSON.stringify(body), `a batch of ${calls.length} ${calls[0]?.method ?? ""} calls`)) as RpcAnswer[];
    const byId = new Map(answers.map((a) => [a.id, a]));
    return body.map((b) => byId.get(b.id) ?? { id: b.id, error: { code: 0, message: "no answer in the batch" } });
  };
  const request = async <T>(method: string, params: unknown[]): Promise<T> => {
    const [answer] = await post([{ method, params }]);
    if (!answer || answer.error) throw new Error(`${method}: ${answer?.error?.message ?? "no answer"}`);
    return answer.result as T;
  };
  const nextNonce = async (from: string): Promise<number> => {
    let n = nonces.get(from);
    if (n === undefined) n = Number(await request<string>("eth_getTransactionCount", [from, "pending"]));
    nonces.set(from, n + 1);
    return n;
  };

  // The call replayed on the block before its own, for the revert's message.
  const revertReason = async (hash: string): Promise<string> => {
    const tx = await request<{ from: string; to: string; input: string; gas: string; value: string; blockNumber: string }>("eth_getTransactionByHash", [hash]);
    const [answer] = await post([{ method: "eth_call", params: [{ from: tx.from, to: tx.to, data: tx.input, gas: tx.gas, value: tx.value }, hex(Number(tx.blockNumber) - 1)] }]);
    return `from ${tx.from} to ${tx.to}, selector ${tx.input.slice(0, 10)}: ${answer?.error?.message ?? "the replay succeeds (the block's earlier transactions made it fail)"}`;
  };

  return {
    request,
    async requestMany<T>(method: string, paramsList: unknown[][]) {
      const out: T[] = [];
      for (let i = 0; i < paramsList.length; i += BATCH) {
        const answers = await post(paramsList.slice(i, i + BATCH).map((params) => ({ method, params })));
        for (const a of answers) {
          if (a.error) throw new Error(`${method}: ${a.error.message}`);
          out.push(a.result as T);
        }
      }
      return out;
    },
    async sendInBlocks(txs, { perBlock, secondsPerBlock }) {
      const hashes: string[] = [];
      await request("evm_setAutomine", [false]);
      try {
        for (let start = 0; start < txs.length; start += perBlock) {
          const block = txs.slice(start, start + perBlock);
          for (let b = 0; b < block.length; b += BATCH) {
            const calls = [];
            for (const tx of block.slice(b, b + BATCH)) {
              const params = { from: tx.from, to: tx.to, data: tx.data, gas: hex(tx.gas), nonce: hex(await nextNonce(tx.from)), maxFeePerGas: hex(MAX_FEE), maxPriorityFeePerGas: "0x0", ...(tx.value ? { value: hex(tx.value) } : {}) };
              calls.push({ method: "eth_sendTransaction", params: [params] });
            }
            const answers = await post(calls);
            answers.forEach((a, i) => {
              if (a.error || typeof a.result !== "string") throw new Error(`eth_sendTransaction of transaction ${start + b + i} (to ${block[b + i]?.to}) refused: ${a.error?.message ?? "no hash"}`);
              hashes.push(a.result);
            });
          }
          if (secondsPerBlock > 0) await request("evm_increaseTime", [secondsPerBlock]);
          await request("evm_mine", []);
        }
      } finally {
        await request("evm_setAutomine", [true]);
      }
      return hashes;
    },
    async expectMined(hashes) {
      const blocks = new Set<string>();
      for (let i = 0; i < hashes.length; i += BATCH) {
        const answers = await post(hashes.slice(i, i + BATCH).map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })));
        for (const [j, a] of answers.entries()) {
          const receipt = a.result as { status?: string; blockNumber?: string } | null | undefined;
          const hash = hashes[i + j] ?? "";
          if (!receipt) throw new Error(`transaction ${hash} was not mined (a block held fewer than planned: raise the block gas limit or lower perBlock)`);
          if (receipt.status !== "0x1") throw new Error(`transaction ${hash} reverted (block ${Number(receipt.blockNumber)}): ${await revertReason(hash)}`);
          blocks.add(receipt.blockNumber ?? "");
        }
      }
      return { blocks: blocks.size };
    },
  };
}
