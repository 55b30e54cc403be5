// A long chain with few events (hardhat_mine between approvals): an event-only subgraph indexes every
// event, and asks for about one block header per event and per log range, not one per block. The first
// event sits at block 3335 on purpose: the log fetcher's ranges from block 2 grow 10, 20, 40, ... blocks,
// so that block is in the range a step takes on after an empty one taken on after the step's own. Such a
// range's jobs were once dropped while the pointer moved past them (jobRunner's loop left before the
// range it had asked for arrived): the event was missing from the rows.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { createLocalNode } from "../index.js";
import { blockNumber, buildFor, byId, chainApprovals, deployWithGraphCli, queryAllApprovals, rpc, startChainWithToken, waitForHead, type ChainFixture } from "./harness.js";
import { startFaultProxy, type FaultProxy } from "./faultProxy.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let fx: ChainFixture;
let counter: FaultProxy;
const EVENTS = 21;

const mine = (blocks: number) => (blocks > 0 ? rpc(fx.chain.url, "hardhat_mine", [`0x${blocks.toString(16)}`]) : Promise.resolve());

beforeAll(async () => {
  fx = await startChainWithToken();
  // The first approval lands in block 3335, then one every 5,000 blocks: about 103,000 blocks.
  await mine(3334 - (await blockNumber(fx.chain.url)));
  for (let i = 0; i < EVENTS; i++) {
    if (i > 0) await mine(4_999);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 1, seed: 500 + i });
  }
  // A clean proxy: no faults, only the count of what the node asks for.
  counter = await startFaultProxy({ target: fx.chain.url, seed: 1, profile: { rate: 0 } });
});
afterAll(async () => {
  await counter?.close();
  await fx?.stop();
});

describe("a sparse chain", () => {
  it("indexes every event and asks for headers by the event, not by the block", async () => {
    const built = await buildFor(fx.token);
    const dataDir = await mkdtemp(join(tmpdir(), "sparse-chain-"));
    const node = await createLocalNode({ ethereumRpc: `localhost:${counter.url}`, dataDir, ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: () => {}, pollIntervalMs: 100 });
    try {
      const name = "sparse/approvals";
      await deployWithGraphCli(built, name, node.urls);
      const status = await waitForHead(node.urls.status, name, fx.chain.url, 120_000);
      expect(status.health).toBe("healthy");
      const onChain = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
      expect(onChain).toHaveLength(EVENTS);
      expect(await queryAllApprovals(`${node.urls.query}/subgraphs/name/${name}`)).toEqual(onChain);
      const head = await blockNumber(fx.chain.url);
      expect(head).toBeGreaterThan(100_000);
      // Each event's block, each range's last block and its canonical checks: a few hundred at most for
      // 100,000 blocks.
      expect(counter.counts.methods.eth_getBlockByNumber ?? 0).toBeLessThan(300);
      expect(counter.counts.methods.eth_getLogs ?? 0).toBeLessThan(60);
    } finally {
      await node.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
