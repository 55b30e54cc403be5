// Against a real Hardhat node: approvals sent through the proxy come back from getLogs, are decoded
// with the manifest's ABI and become host events with the block's and transaction's real fields;
// a reorg made with evm_snapshot/evm_revert is found by the ancestor search.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { id as keccakId } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/hardhatNode.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { deployApprovalToken } from "../../../../../hardhat/deploy/deployToken.js";
import { sampleSpender, sampleValue, sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { createRpcClient, type RpcClient } from "../chain/rpcClient.js";
import { getBlock, getHeadNumber } from "../chain/blocks.js";
import { createLogFetcher } from "../chain/logs.js";
import { findCommonAncestor } from "../chain/reorg.js";
import { createLogDecoder } from "./decode.js";
import { loadRange } from "./rangeLoader.js";
import type { BlockJob, Trigger } from "./hostProtocol.js";
import { packRun, unpackRun } from "./runCodec.js";
import { hexByteStrings } from "./_test/hexByteStrings.js";

const APPROVAL = "Approval(indexed address,indexed address,uint256)";
const topic0 = keccakId("Approval(address,address,uint256)");

let chain: HardhatNode;
let rpc: RpcClient;
let token = "";
let startBlock = 0;
let abi: unknown[] = [];

beforeAll(async () => {
  chain = await startHardhatNode();
  rpc = createRpcClient({ url: chain.url });
  const deployed = await deployApprovalToken({ rpcUrl: chain.url });
  token = deployed.proxy.toLowerCase();
  startBlock = deployed.startBlock;
  abi = JSON.parse(await readFile(join(projectRoot, "abis", "ApprovalToken.json"), "utf8")) as unknown[];
});
afterAll(async () => {
  await chain?.stop();
});

/** A job's triggers as the worker gets them: packed, posted and read back. */
function workerTriggers(job: BlockJob): Trigger[] {
  const run = packRun([job]);
  const [received] = unpackRun(structuredClone(run, { transfer: [run.bytes.buffer] }));
  return [...received!.triggers].map(hexByteStrings);
}

describe("loadRange", () => {
  it("decodes approvals into events in chain order with real block and transaction fields", async () => {
    const sent = await sendApprovals({ rpcUrl: chain.url, token, count: 45, batchSize: 20 });
    const head = await getHeadNumber(rpc);
    const fetcher = createLogFetcher({ rpc, initialRange: 3 });
    const decoder = createLogDecoder(abi, [{ event: APPROVAL, handler: "ApprovalHandler", topic0, receipt: false }]);
    const sources = [{ index: 0, address: token, startBlock, decoder, blockHandlers: [] }];
    const events = [];
    let from = startBlock;
    while (from <= head) {
      const chunk = await fetcher.next(from, head, { addresses: [token], topic0s: [topic0] });
      const range = await loadRange(rpc, sources, chunk.logs, from, chunk.toBlock);
      expect(range.end.number).toBe(chunk.toBlock);
      for (const job of range.jobs) for (const t of workerTriggers(job)) if (t.kind === "event") events.push({ job, t });
      from = chunk.toBlock + 1;
    }
    // The proxy's initialize emits no Approval; every sent approval comes back once, in order.
    expect(events).toHaveLength(45);
    const values = events.map(({ t }) => (t.event.parameters[2]?.value as { value: bigint }).value);
    expect(values).toEqual(Array.from({ length: 45 }, (_, i) => sampleValue(i)));
    const spenders = events.map(({ t }) => t.event.parameters[1]?.value.value);
    expect(spenders).toEqual(Array.from({ length: 45 }, (_, i) => sampleSpender(i).toLowerCase()));
    expect(events[0]!.t.event.parameters.map((p) => p.name)).toEqual(["owner", "spender", "value"]);

    const first = events[0]!;
    const block = await rpc.request<Record<string, string>>("eth_getBlockByNumber", [`0x${first.job.ptr.number.toString(16)}`, false]);
    expect(first.t.event.block.hash).toBe(block.hash);
    expect(first.t.event.block.timestamp).toBe(BigInt(block.timestamp!));
    const tx = await rpc.request<Record<string, string>>("eth_getTransactionByHash", [sent.txHashes[0]]);
    expect(first.t.event.transaction.hash).toBe(sent.txHashes[0]!.toLowerCase());
    expect(first.t.event.transaction.from).toBe(tx.from!.toLowerCase());
    expect(first.t.event.transaction.nonce).toBe(BigInt(tx.nonce!));
    expect(first.t.event.transaction.input).toBe(tx.input);
    expect(first.t.event.address).toBe(token);
    expect(first.t.event.receipt).toBeUndefined();
    // Log indexes increase within a block.
    const idx = events.filter((e) => e.job === first.job).map((e) => Number(e.t.kind === "event" ? e.t.event.logIndex : -1));
    expect(idx).toEqual([...idx].sort((a, b) => a - b));

    // With an end block, logs after it produce no trigger.
    const firstBlock = first.job.ptr.number;
    const allLogs = (await createLogFetcher({ rpc }).next(startBlock, head, { addresses: [token], topic0s: [topic0] })).logs;
    const ended = await loadRange(rpc, [{ index: 0, address: token, startBlock, endBlock: firstBlock, decoder, blockHandlers: [] }], allLogs, startBlock, head);
    expect(ended.jobs.map((j) => j.ptr.number)).toEqual([firstBlock]);
    expect(ended.end.number).toBe(head);
  });

  it("attaches the receipt only for handlers that ask for it", async () => {
    await sendApprovals({ rpcUrl: chain.url, token, count: 1, seed: 7 });
    const head = await getHeadNumber(rpc);
    const logs = (await createLogFetcher({ rpc }).next(head, head, { addresses: [token], topic0s: [topic0] })).logs;
    const decoder = createLogDecoder(abi, [{ event: APPROVAL, handler: "WithReceipt", topic0, receipt: true }]);
    const range = await loadRange(rpc, [{ index: 0, address: token, startBlock, decoder, blockHandlers: [] }], logs, head, head);
    const trigger = range.jobs[0]?.triggers[0];
    const receipt = trigger?.kind === "event" ? trigger.event.receipt : undefined;
    expect(receipt?.status).toBe(1n);
    expect(receipt?.logs).toHaveLength(1);
  });

  it("applies topic1..3 filters as graph-node: any listed value, an empty list matches nothing", async () => {
    const sent = await sendApprovals({ rpcUrl: chain.url, token, count: 6, seed: 11 });
    const logs = (await createLogFetcher({ rpc }).next(sent.firstBlock, sent.lastBlock, { addresses: [token], topic0s: [topic0] })).logs;
    expect(logs).toHaveLength(6);
    const wanted = [sampleSpender(1, 11), sampleSpender(4, 11)].map((a) => `0x${a.slice(2).toLowerCase().padStart(64, "0")}`);
    const handlers = (topic2: string[] | null) => [{ event: APPROVAL, handler: "H", topic0, receipt: false, topic2 }];
    const spendersOf = async (topic2: string[] | null) => {
      const source = { index: 0, address: token, startBlock, decoder: createLogDecoder(abi, handlers(topic2)), blockHandlers: [] };
      const range = await loadRange(rpc, [source], logs, sent.firstBlock, sent.lastBlock);
      return range.jobs.flatMap(workerTriggers).map((t) => (t.kind === "event" ? String(t.event.parameters[1]?.value.value) : ""));
    };
    expect(await spendersOf(wanted)).toEqual([sampleSpender(1, 11), sampleSpender(4, 11)].map((a) => a.toLowerCase()));
    expect(await spendersOf([])).toEqual([]);
    expect(await spendersOf(null)).toHaveLength(6);
  });

  it("refuses a log that two handlers of one data source match, as graph-node fails on it", async () => {
    const sent = await sendApprovals({ rpcUrl: chain.url, token, count: 1, seed: 13 });
    const logs = (await createLogFetcher({ rpc }).next(sent.firstBlock, sent.lastBlock, { addresses: [token], topic0s: [topic0] })).logs;
    const decoder = createLogDecoder(abi, [
      { event: APPROVAL, handler: "A", topic0, receipt: false },
      { event: APPROVAL, handler: "B", topic0, receipt: false },
    ]);
    const range = await loadRange(rpc, [{ index: 0, address: token, startBlock, decoder, blockHandlers: [] }], logs, sent.firstBlock, sent.lastBlock);
    const [trigger] = range.jobs[0]!.triggers;
    expect(trigger).toMatchObject({ kind: "refused", message: `Multiple handlers defined for event \`${APPROVAL}\`, only one is supported` });
  });

  it("adds block handler triggers in graph-node's order: once first, then logs by index, then every-block and polling", async () => {
    const sent = await sendApprovals({ rpcUrl: chain.url, token, count: 2, seed: 12 });
    for (let i = 0; i < 4; i++) await rpc.request("evm_mine", []);
    const from = sent.firstBlock;
    const to = sent.lastBlock + 4;
    const logs = (await createLogFetcher({ rpc }).next(from, to, { addresses: [token], topic0s: [topic0] })).logs;
    const decoder = createLogDecoder(abi, [{ event: APPROVAL, handler: "OnApproval", topic0, receipt: false }]);
    const sources = [
      { index: 0, address: token, startBlock: from, decoder, blockHandlers: [{ handler: "Init", filter: { kind: "once" as const } }, { handler: "Every", filter: null }] },
      { index: 1, address: token, startBlock: from, decoder, blockHandlers: [{ handler: "Poll", filter: { kind: "polling" as const, every: 2 } }] },
    ];
    const range = await loadRange(rpc, sources, logs, from, to);
    expect(range.jobs.map((j) => j.ptr.number)).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
    const order = (i: number) => range.jobs[i]!.triggers.map((t) => `${t.dataSource}:${t.handler}`);
    // One approval per block (sendApprovals sends small counts one by one).
    expect(order(0)).toEqual(["0:Init", "0:OnApproval", "1:OnApproval", "0:Every", "1:Poll"]);
    expect(order(1)).toEqual(["0:OnApproval", "1:OnApproval", "0:Every"]);
    expect(order(2)).toEqual(["0:Every", "1:Poll"]);
    expect(order(3)).toEqual(["0:Every"]);
    const block = range.jobs[2]!.triggers[0]!;
    expect(block.kind === "block" && Number(block.block.number)).toBe(from + 2);
  });
});

describe("findCommonAncestor", () => {
  it("finds the last block that survived an evm_revert", async () => {
    const base = await getHeadNumber(rpc);
    const snapshot = await rpc.request<string>("evm_snapshot", []);
    for (let i = 0; i < 3; i++) await rpc.request("evm_mine", []);
    const orphaned = [];
    for (let n = base - 1; n <= base + 3; n++) {
      const b = await getBlock(rpc, n);
      orphaned.push({ number: b!.number, hash: b!.hash });
    }
    await rpc.request("evm_revert", [snapshot]);
    // Different timestamps make the replacement blocks differ from the orphaned ones.
    await rpc.request("evm_increaseTime", [100]);
    for (let i = 0; i < 4; i++) await rpc.request("evm_mine", []);
    const ancestor = await findCommonAncestor({ rpc, known: orphaned, batchSize: 2 });
    expect(ancestor?.number).toBe(base);
    expect((await getBlock(rpc, base + 1))!.hash).not.toBe(orphaned.find((o) => o.number === base + 1)!.hash);
  });
});
