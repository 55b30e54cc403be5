// The handler profile against the chain: a subgraph whose handlers' store and eth_call use follows from
// each event (_test/profile), on a real Hardhat chain, built by graph-cli and deployed to the node. Per
// handler, the calls equal the chain's approvals and successful calls to the token, and the store and
// eth_call counts what the mapping does for each. A second deployment of the subgraph (another start
// block, so another id) on a node with the chain cache has every eth_call answered from the cache the
// first one filled. The profile is kept in the handlers' thread, apart from the store: PGlite alone.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Interface } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployApprovalToken, readArtifact, sendApprovals } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { createLocalNode, type LocalNode } from "../index.js";
import type { HandlerProfileRow } from "../indexer/index.js";
import { blockNumber, chainApprovals, deployWithGraphCli, rpc, waitForHead } from "./harness.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const fixture = join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "profile");

let chain: HardhatNode;
let token = "";
let startBlock = 0;

beforeAll(async () => {
  chain = await startHardhatNode();
  const deployed = await deployApprovalToken({ rpcUrl: chain.url });
  token = deployed.proxy.toLowerCase();
  startBlock = deployed.startBlock;
  // Single approvals (approve), then batches of 8 (approveMany).
  await sendApprovals({ rpcUrl: chain.url, token, count: 7 });
  await sendApprovals({ rpcUrl: chain.url, token, count: 48, batchSize: 8, seed: 5 });
});
afterAll(async () => {
  await chain?.stop();
});

/** The successful transactions to the token by method, read from the chain's blocks and receipts. */
async function chainCallsByMethod(): Promise<Map<string, number>> {
  const iface = new Interface((await readArtifact("ApprovalToken")).abi);
  const counts = new Map<string, number>();
  const head = await blockNumber(chain.url);
  for (let n = startBlock; n <= head; n++) {
    const block = await rpc<{ transactions: { hash: string; to: string | null; input: string }[] }>(chain.url, "eth_getBlockByNumber", [`0x${n.toString(16)}`, true]);
    for (const tx of block.transactions) {
      if (tx.to?.toLowerCase() !== token) continue;
      if ((await rpc<{ status: string }>(chain.url, "eth_getTransactionReceipt", [tx.hash])).status !== "0x1") continue;
      const method = iface.parseTransaction({ data: tx.input })!.name;
      counts.set(method, (counts.get(method) ?? 0) + 1);
    }
  }
  return counts;
}

async function startNode(chainCache: boolean): Promise<{ node: LocalNode; logs: string[]; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), "local-node-profile-"));
  const logs: string[] = [];
  const node = await createLocalNode({ ethereumRpc: chain.url, dataDir, ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: (line) => logs.push(line), pollIntervalMs: 100, chainCache });
  return { node, logs, stop: async () => (await node.close(), await rm(dataDir, { recursive: true, force: true })) };
}

const build = (from: number): Promise<BuiltSubgraph> => buildSubgraph({ projectDir: fixture, address: token, startBlock: from, network: "localhost" });

function row(rows: HandlerProfileRow[], handler: string): HandlerProfileRow {
  const found = rows.find((r) => r.dataSource === "ApprovalToken" && r.handler === handler);
  if (!found) throw new Error(`no profile row for ${handler}: ${JSON.stringify(rows.map((r) => r.handler))}`);
  return found;
}

describe("the handler profile", () => {
  it("counts each handler's calls, store use and eth_calls as the chain's events make them", async () => {
    const approvals = await chainApprovals(chain.url, token, startBlock);
    const even = approvals.filter((a) => BigInt(a.value) % 2n === 0n).length;
    const calls = await chainCallsByMethod();
    expect(approvals.length).toBe(55);
    expect(calls.get("approve")).toBe(7);
    expect(calls.get("approveMany")).toBe(6);
    expect(even).toBeGreaterThan(0);
    expect(even).toBeLessThan(approvals.length);

    const node = await startNode(false);
    try {
      const name = "e2e/profile";
      const id = await deployWithGraphCli(await build(startBlock), name, node.node.urls);
      expect((await waitForHead(node.node.urls.status.replace(/\/graphql$/, ""), name, chain.url)).health).toBe("healthy");
      const rows = node.node.indexer.profile(id)!.handlers;
      expect(rows.map((r) => r.handler).sort()).toEqual(["handleApproval", "handleApprove", "handleApproveMany"]);

      const approval = row(rows, "handleApproval");
      expect(approval).toMatchObject({ calls: approvals.length, storeGets: approvals.length, storeSets: 2 * approvals.length, storeRemoves: even, ethCalls: approvals.length, ethCallsCached: 0 });
      expect(row(rows, "handleApprove")).toMatchObject({ calls: 7, storeGets: 0, storeSets: 7, storeRemoves: 0, ethCalls: 0 });
      expect(row(rows, "handleApproveMany")).toMatchObject({ calls: 6, storeGets: 0, storeSets: 6, storeRemoves: 0, ethCalls: 0 });
      for (const r of rows) {
        expect(r.totalMs).toBeGreaterThan(0);
        expect(r.maxMs).toBeGreaterThan(0);
        expect(r.maxMs).toBeLessThanOrEqual(r.totalMs);
        expect(r.seconds.count).toBe(r.calls);
      }
      // The eth_calls' time is part of their handler's.
      expect(approval.ethCallMs).toBeLessThanOrEqual(approval.totalMs);
      // The dashboard's JSON serves the same profile.
      const served = (await (await fetch(`${node.node.urls.query}/_workbench/api/profile/${id}`)).json()) as { handlers: HandlerProfileRow[] };
      expect(served.handlers.map((r) => [r.handler, r.calls, r.storeSets])).toEqual(rows.map((r) => [r.handler, r.calls, r.storeSets]));
      // The node printed the table when the catch-up ended.
      const printed = node.logs.find((l) => l.includes(`${id}: handler profile of the catch-up:`));
      expect(printed).toBeDefined();
      expect(printed).toMatch(new RegExp(`ApprovalToken\\s+handleApproval\\s+${approvals.length}\\s`));
    } finally {
      await node.stop();
    }
  });

  it("counts the eth_calls the chain cache answered", async () => {
    const approvals = await chainApprovals(chain.url, token, startBlock);
    const node = await startNode(true);
    try {
      const first = await deployWithGraphCli(await build(startBlock), "e2e/profile-first", node.node.urls);
      await waitForHead(node.node.urls.status.replace(/\/graphql$/, ""), "e2e/profile-first", chain.url);
      // Filled by the first: none of its own calls came from the cache.
      expect(row(node.node.indexer.profile(first)!.handlers, "handleApproval")).toMatchObject({ ethCalls: approvals.length, ethCallsCached: 0 });

      const second = await deployWithGraphCli(await build(startBlock - 1), "e2e/profile-second", node.node.urls);
      expect(second).not.toBe(first);
      await waitForHead(node.node.urls.status.replace(/\/graphql$/, ""), "e2e/profile-second", chain.url);
      expect(row(node.node.indexer.profile(second)!.handlers, "handleApproval")).toMatchObject({ ethCalls: approvals.length, ethCallsCached: approvals.length });
    } finally {
      await node.stop();
    }
  });
});
