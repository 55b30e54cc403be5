// The deployment indexer end to end below the servers: a real Hardhat chain, the real built
// ApprovalHandler, the real store (in-memory PGlite). Sync to head, follow new blocks, survive a
// reorg made with evm_snapshot/evm_revert, and stop with a fatal error on an immutable rewrite.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { startChainWithToken, chainApprovals, type ChainFixture } from "../e2e/chainFixture.js";
import { buildApprovalDeployment } from "../e2e/deploymentFixture.js";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { createRpcClient, type RpcClient } from "../chain/rpcClient.js";
import { ConnectionError } from "../../json-rpc/index.js";
import { getHeadNumber } from "../chain/blocks.js";
import { createDeploymentIndexer, type DeploymentIndexer, type DeploymentIndexerOptions } from "./deploymentIndexer.js";
import type { IndexedDeployment } from "./types.js";

// graph-cli builds and real chains: generous limits for a loaded 2-core CI machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let fx: ChainFixture;
let store: NodeStore;
let deployment: IndexedDeployment;
const logs: string[] = [];

async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${logs.slice(-20).join("\n")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function storedIds(id: string): Promise<string[]> {
  const r = await store.queryEntities(id, { entityTypes: ["ApprovalQuery"], filter: null, order: null, skip: 0, first: 100_000, block: 2_147_483_647, selection: [{ key: "id", kind: "field", field: "id" }] });
  return r.rows.map((row) => String(row.id)).sort();
}

async function startIndexer(id: string, rpc: RpcClient = createRpcClient({ url: fx.chain.url }), extra: Partial<DeploymentIndexerOptions> = {}): Promise<DeploymentIndexer> {
  const startBlock = deployment.dataSources[0]!.startBlock;
  await store.createDeployment({ id, schemaSdl: deployment.schemaSdl, network: "localhost", startBlock, manifest: "" });
  const indexer = createDeploymentIndexer({ store, rpc, deployment: { ...deployment, id }, log: (l, m) => logs.push(`${l} ${m}`), pollIntervalMs: 50, ...extra });
  void indexer.start();
  return indexer;
}

beforeAll(async () => {
  fx = await startChainWithToken();
  deployment = await buildApprovalDeployment(fx.token, "");
  store = await createNodeStore({});
});
afterAll(async () => {
  await store?.close();
  await fx?.stop();
});

describe("deployment indexer", () => {
  it("syncs to the head, follows new blocks, and reverts orphaned entities on a reorg", async () => {
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 1200, batchSize: 300 });
    const indexer = await startIndexer("QmSync");
    const rpc = createRpcClient({ url: fx.chain.url });
    try {
      const head = await getHeadNumber(rpc);
      await until("sync", async () => (await store.getDeployment("QmSync"))?.latestBlock?.number === head);
      expect((await store.getDeployment("QmSync"))?.synced).toBe(true);
      const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).map((a) => a.id).sort();
      expect(expected).toHaveLength(1200);
      expect(await storedIds("QmSync")).toEqual(expected);

      // Reorg: blocks with approvals are replaced by blocks with other approvals.
      const snapshot = await rpc.request<string>("evm_snapshot", []);
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 30, batchSize: 10, seed: 1 });
      const orphanHead = await getHeadNumber(rpc);
      await until("orphaned blocks indexed", async () => (await store.getDeployment("QmSync"))?.latestBlock?.number === orphanHead);
      const orphaned = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).map((a) => a.id);
      expect(await storedIds("QmSync")).toHaveLength(1230);
      await rpc.request("evm_revert", [snapshot]);
      await rpc.request("evm_increaseTime", [60]);
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 40, batchSize: 10, seed: 2 });
      await rpc.request("evm_mine", []);
      const newHead = await getHeadNumber(rpc);
      expect(newHead).toBeGreaterThan(orphanHead);
      const canonical = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).map((a) => a.id).sort();
      await until("reorg handled", async () => {
        const d = await store.getDeployment("QmSync");
        return d?.latestBlock?.number === newHead && (await storedIds("QmSync")).length === 1240;
      });
      expect(await storedIds("QmSync")).toEqual(canonical);
      expect(orphaned.filter((o) => !canonical.includes(o))).toHaveLength(30);
      expect(logs.some((l) => l.includes("reorg"))).toBe(true);
    } finally {
      await indexer.stop();
    }
  });

  it("retries when the node fails for a while, and ends with the same data", async () => {
    const real = createRpcClient({ url: fx.chain.url });
    let failures = 3;
    // The first block fetches fail as a flaky provider would (connection reset).
    const flaky: RpcClient = {
      displayUrl: real.displayUrl,
      request: (method, params) => real.request(method, params),
      async batch(calls) {
        if (calls[0]?.method === "eth_getBlockByNumber" && calls[0].params[1] === true && failures-- > 0) throw new ConnectionError({ url: "http://127.0.0.1:8545", cause: new Error("connection reset (test)") });
        return real.batch(calls);
      },
    };
    const indexer = await startIndexer("QmFlaky", flaky);
    try {
      const head = await getHeadNumber(real);
      await until("sync through failures", async () => (await store.getDeployment("QmFlaky"))?.latestBlock?.number === head);
      expect(failures).toBeLessThan(0);
      expect(logs.filter((l) => l.includes("QmFlaky") && l.includes("Could not connect to the JSON-RPC endpoint"))).toHaveLength(3);
      expect(await storedIds("QmFlaky")).toEqual(await storedIds("QmSync"));
      expect((await store.getDeployment("QmFlaky"))?.health).toBe("healthy");
    } finally {
      await indexer.stop();
    }
  });

  it("reports a step that waits too long, naming what it waits on, and then carries on", async () => {
    // A store whose first block commit is held for a while, as a stuck database connection would be.
    let held = false;
    const slowStore: NodeStore = {
      ...store,
      async transactBlocks(...args: Parameters<NodeStore["transactBlocks"]>) {
        if (!held) {
          held = true;
          await new Promise((r) => setTimeout(r, 1_500));
        }
        return store.transactBlocks(...args);
      },
    };
    const rpc = createRpcClient({ url: fx.chain.url });
    const before = logs.length;
    const indexer = await startIndexer("QmSlow", rpc, { store: slowStore, slowStepMs: 400 });
    try {
      const head = await getHeadNumber(rpc);
      await until("sync after the slow commit", async () => (await store.getDeployment("QmSlow"))?.latestBlock?.number === head);
      const reports = logs.slice(before).filter((l) => l.startsWith("warning QmSlow: still "));
      // On a loaded machine another step (fetching logs) may also pass the 400 ms mark: the held commit
      // must be among the reports, naming what it waits on.
      const slowCommit = /still (committing blocks up to \d+|running handlers for blocks \d+-\d+) after \d+\.\d s; worker: \d run\(s\) in flight/;
      expect(reports.filter((r) => slowCommit.test(r)), reports.join("\n")).not.toEqual([]);
      expect(await storedIds("QmSlow")).toEqual(await storedIds("QmSync"));
    } finally {
      await indexer.stop();
    }
  });

  it("starts its deferred work once synced when the last triggers lie more than 10 blocks below the head", async () => {
    // Blocks without approvals on top: the deployment becomes synced on the pointer's commit at the
    // range's end, not on a commit of blocks (graph-node's CAUGHT_UP_DISTANCE is 10).
    const rpc = createRpcClient({ url: fx.chain.url });
    for (let i = 0; i < 15; i++) await rpc.request("evm_mine", []);
    const told: string[] = [];
    const indexer = await startIndexer("QmQuietTop", rpc, { afterSyncedCommit: (id) => told.push(id) });
    try {
      const head = await getHeadNumber(rpc);
      await until("sync to the empty blocks' head", async () => (await store.getDeployment("QmQuietTop"))?.latestBlock?.number === head);
      expect((await store.getDeployment("QmQuietTop"))?.synced).toBe(true);
      await until("the synced commit told", () => told.includes("QmQuietTop"), 5_000);
    } finally {
      await indexer.stop();
    }
  });
});
