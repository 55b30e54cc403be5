// The chain cache (local-node/chain/chainCache.ts) on a real Hardhat chain and the node's store: a second
// read of the same ranges asks the chain only for each range's last block and answers as the chain does;
// after a reorg (evm_revert, other approvals in the same block numbers) it answers with the new chain's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeStore, type NodeStore } from "../store/index.js";
import { createLogFetcher, createRpcClient, getBlocks, toHex, withChainCache, type RpcClient } from "../chain/index.js";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { APPROVAL_TOPIC, blockNumber, rpc, startChainWithToken, type ChainFixture } from "./harness.js";

// ERC-20 allowance(address,address).
const ALLOWANCE = "0xdd62ed3e";
const SPAN = 4;

/** The real client, counting the calls that reach the chain by method. */
function counted(url: string): { client: RpcClient; sent: Map<string, number> } {
  const inner = createRpcClient({ url });
  const sent = new Map<string, number>();
  const add = (method: string) => sent.set(method, (sent.get(method) ?? 0) + 1);
  return {
    sent,
    client: {
      displayUrl: inner.displayUrl,
      request: (method, params) => (add(method), inner.request(method, params)),
      batch: (calls) => (calls.forEach((c) => add(c.method)), inner.batch(calls)),
    },
  };
}

/** Reads as the range loader does: logs by ranges of SPAN blocks, each log's block, and an eth_call at it. */
async function readChain(client: RpcClient, token: string, from: number, to: number) {
  const fetcher = createLogFetcher({ rpc: client, initialRange: SPAN, maxRange: SPAN });
  const logs = [];
  let ranges = 0;
  for (let n = from; n <= to; ranges++) {
    const chunk = await fetcher.next(n, to, { addresses: [token.toLowerCase()], topic0s: [APPROVAL_TOPIC] });
    logs.push(...chunk.logs);
    n = chunk.toBlock + 1;
  }
  const numbers = [...new Set(logs.map((l) => l.blockNumber))];
  const blocks = await getBlocks(client, numbers, false);
  const allowances = [];
  for (const n of numbers) {
    const first = logs.find((l) => l.blockNumber === n)!;
    allowances.push(await client.request<string>("eth_call", [{ to: token, data: ALLOWANCE + first.topics[1]!.slice(2) + first.topics[2]!.slice(2) }, toHex(n)]));
  }
  return { logs, blocks, allowances, ranges };
}

describe("the chain cache", () => {
  let fixture: ChainFixture;
  let store: NodeStore;
  beforeAll(async () => {
    fixture = await startChainWithToken();
    store = await createNodeStore({});
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await fixture?.stop();
  });

  it("answers a second read as the chain does, asking it only for each range's last block", async () => {
    const { chain, token } = fixture;
    await sendApprovals({ rpcUrl: chain.url, token: token.proxy, count: 60, batchSize: 5, seed: 3 });
    const head = await blockNumber(chain.url);
    const truth = await readChain(createRpcClient({ url: chain.url }), token.proxy, token.startBlock, head);
    expect(truth.logs).toHaveLength(60);

    const first = counted(chain.url);
    const filling = withChainCache(first.client, store.chainCache);
    expect(await readChain(filling, token.proxy, token.startBlock, head)).toEqual(truth);
    expect(first.sent.get("eth_getLogs")).toBe(truth.ranges);
    await filling.settled();

    // Another client on the same store: a node started again, or the next version of the dev loop.
    const second = counted(chain.url);
    const cached = withChainCache(second.client, store.chainCache);
    expect(await readChain(cached, token.proxy, token.startBlock, head)).toEqual(truth);
    expect(Object.fromEntries(second.sent)).toEqual({ eth_chainId: 1, eth_getBlockByNumber: truth.ranges });
    expect(cached.stats.reorgs).toBe(0);
  }, 120_000);

  it("answers with the new chain's data after a reorg, and keeps nothing after the indexer reports one", async () => {
    const { chain, token } = fixture;
    const snapshot = await rpc<string>(chain.url, "evm_snapshot");
    await sendApprovals({ rpcUrl: chain.url, token: token.proxy, count: 20, batchSize: 5, seed: 4 });
    const head = await blockNumber(chain.url);
    const from = head - 3;
    const before = await readChain(createRpcClient({ url: chain.url }), token.proxy, from, head);
    const { client } = counted(chain.url);
    const cached = withChainCache(client, store.chainCache);
    expect(await readChain(cached, token.proxy, from, head)).toEqual(before);
    await cached.settled();

    // The same block numbers, other blocks: the approvals of another seed.
    expect(await rpc<boolean>(chain.url, "evm_revert", [snapshot])).toBe(true);
    await sendApprovals({ rpcUrl: chain.url, token: token.proxy, count: 20, batchSize: 5, seed: 5 });
    expect(await blockNumber(chain.url)).toBe(head);
    const after = await readChain(createRpcClient({ url: chain.url }), token.proxy, from, head);
    expect(after.logs.map((l) => l.blockHash)).not.toEqual(before.logs.map((l) => l.blockHash));

    // The same client (it has seen the old blocks) and a new one both answer with the new chain.
    expect(await readChain(cached, token.proxy, from, head)).toEqual(after);
    expect(cached.stats.reorgs).toBe(1);
    await cached.settled();
    const fresh = counted(chain.url);
    expect(await readChain(withChainCache(fresh.client, store.chainCache), token.proxy, from, head)).toEqual(after);
    expect(fresh.sent.get("eth_getLogs")).toBeUndefined();

    // The indexer found a reorg: nothing kept is used again.
    await cached.chainMoved!();
    const next = counted(chain.url);
    expect(await readChain(withChainCache(next.client, store.chainCache), token.proxy, from, head)).toEqual(after);
    expect(next.sent.get("eth_getLogs")).toBe(after.ranges);
  }, 120_000);
});
