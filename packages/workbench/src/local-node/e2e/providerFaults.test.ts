// The local node indexing a real Hardhat chain through unreliable providers (faultProxy.ts): every fault a
// hosted provider shows (rate limits with and without Retry-After, 5xx, resets before and during a body,
// truncated and empty bodies, slow answers, a backend behind that answers null for the newest blocks,
// batches with elements missing, rate limited or reordered) at a quarter of the requests, with range and
// result caps, through the catch-up, live blocks and a reorg; and two providers where one is dead from
// the start, then two where one dies halfway. Each time the rows equal the approvals read from the chain
// directly, the deployment stays healthy, and no reorg is logged that the chain did not have.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import type { BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { freePort } from "../../lib/freePort.js";
import { createLocalNode, readGraphNodeConfig, type LocalNode, type NetworkProviders } from "../index.js";
import { buildFor, byId, chainApprovals, deployWithGraphCli, queryAllApprovals, rpc, startChainWithToken, statusOf, waitForHead, type ChainFixture } from "./harness.js";
import { FAULT_KINDS, startFaultProxy, type FaultProxy } from "./faultProxy.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let fx: ChainFixture;
let built: BuiltSubgraph;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  fx = await startChainWithToken();
  built = await buildFor(fx.token);
  // About 375 blocks with 1,500 approvals: ranges the caps below split, blocks the batches carry.
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 1_500, batchSize: 4 });
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  await fx?.stop();
});

async function proxy(options: Omit<Parameters<typeof startFaultProxy>[0], "target">): Promise<FaultProxy> {
  const p = await startFaultProxy({ target: fx.chain.url, ...options });
  proxies.push(p);
  return p;
}

async function startNodeOn(entries: string[], configured?: NetworkProviders[]): Promise<{ node: LocalNode; logs: string[]; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), "provider-faults-"));
  const logs: string[] = [];
  const node = await createLocalNode({
    ethereumRpc: entries,
    ...(configured ? { ethereumProviders: configured } : {}),
    dataDir,
    ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
    log: (l) => logs.push(l),
    pollIntervalMs: 100,
  });
  return {
    node,
    logs,
    async stop() {
      await node.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Indexed to the chain's head, healthy, and every row what the chain itself logged. */
async function expectCanonical(node: LocalNode, name: string): Promise<void> {
  const status = await waitForHead(node.urls.status, name, fx.chain.url, 180_000);
  expect(status.health, JSON.stringify(status.fatalError)).toBe("healthy");
  const onChain = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
  expect(await queryAllApprovals(`${node.urls.query}/subgraphs/name/${name}`)).toEqual(onChain);
}

/** Every logged reorg reverts below the block it found changed: never "block N ... reverting to N". */
function bogusReorgs(logs: string[]): string[] {
  return logs.filter((l) => {
    const m = /reorg: block (\d+) .* reverting to (-?\d+)/.exec(l);
    return m !== null && Number(m[2]) >= Number(m[1]);
  });
}

describe("indexing through faulty providers", () => {
  it("keeps the canonical rows through a quarter of requests faulted, range and result caps, live blocks and a reorg", async () => {
    // Every kind, a backend behind three times as often: its nulls were once taken for reorgs.
    const kinds = { ...Object.fromEntries(FAULT_KINDS.map((k) => [k, 1])), behind: 3 };
    const faulty = await proxy({ seed: 52, profile: { rate: 0.25, kinds, slowMs: 2_000, rangeCap: 30, resultCap: 100 } });
    const { node, logs, stop } = await startNodeOn([`localhost:${faulty.url}`]);
    try {
      const name = "faults/heavy";
      await deployWithGraphCli(built, name, node.urls);
      await expectCanonical(node, name);
      // Live: new blocks, then a reorg that replaces some of them.
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 60, batchSize: 6, seed: 7 });
      await expectCanonical(node, name);
      const snapshot = await rpc<string>(fx.chain.url, "evm_snapshot");
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 40, batchSize: 8, seed: 8 });
      await waitForHead(node.urls.status, name, fx.chain.url, 180_000);
      await rpc(fx.chain.url, "evm_revert", [snapshot]);
      await rpc(fx.chain.url, "evm_increaseTime", [30]);
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 70, batchSize: 10, seed: 9 });
      await rpc(fx.chain.url, "evm_mine");
      await expectCanonical(node, name);

      // Every kind of fault was met, and the caps too, and none of them failed the deployment or faked a reorg.
      for (const kind of FAULT_KINDS) expect(faulty.counts.faults[kind] ?? 0, `${kind} in ${JSON.stringify(faulty.counts)}`).toBeGreaterThan(0);
      expect(faulty.counts.faults["range-cap"] ?? 0, JSON.stringify(faulty.counts)).toBeGreaterThan(0);
      expect(faulty.counts.faults["result-cap"] ?? 0, JSON.stringify(faulty.counts)).toBeGreaterThan(0);
      expect(bogusReorgs(logs)).toEqual([]);
      expect(logs.filter((l) => /eth_getLogs refuses even a single block/.test(l))).toEqual([]);
      expect(logs.filter((l) => / ERROR /.test(l))).toEqual([]);
      expect((await statusOf(node.urls.status, name))?.health).toBe("healthy");
    } finally {
      await stop();
    }
  });

  it("indexes, from a graph-node config.toml, through the second of two providers when the first is dead from the start", async () => {
    const deadPort = await freePort();
    const alive = await proxy({ seed: 7, profile: { rate: 0.1 } });
    // A graph-node operator's file as it is, the key of the live provider in the environment.
    process.env.PROVIDER_FAULTS_KEY = "k3y0123456789abcdef";
    const file = [
      "[store]\n[store.primary]\nconnection = \"postgresql://graph:graph@127.0.0.1/graph\"\npool_size = 10",
      "[deployment]\n[[deployment.rule]]\nindexers = [ \"default\" ]",
      "[chains]\ningestor = \"default\"",
      "[chains.localhost]\nshard = \"primary\"\nprovider = [",
      `  { label = "dead", url = "http://127.0.0.1:${deadPort}", features = ["archive"] },`,
      `  { label = "alive", details = { type = "web3", url = "${alive.url}/\${PROVIDER_FAULTS_KEY}", features = ["archive", "traces"] } },`,
      "]",
    ].join("\n");
    const { node, logs, stop } = await startNodeOn([], readGraphNodeConfig(file));
    try {
      const name = "faults/dead-first";
      await deployWithGraphCli(built, name, node.urls);
      await expectCanonical(node, name);
      const [dead, served] = node.providers().find((n) => n.network === "localhost")!.providers;
      expect(dead).toMatchObject({ label: "dead", served: 0 });
      expect(dead!.failed).toBeGreaterThan(0);
      expect(served).toMatchObject({ label: "alive" });
      expect(served!.served).toBeGreaterThan(0);
      // The log says which provider was skipped and why, and never shows the key.
      expect(logs.some((l) => /provider dead is skipped .*transient: Could not connect/.test(l)), logs.slice(-20).join("\n")).toBe(true);
      expect(logs.join("\n")).not.toContain("k3y0123456789abcdef");
      expect(JSON.stringify(node.providers())).not.toContain("k3y0123456789abcdef");
      // The status port says the same, as JSON.
      const res = await fetch(`${node.urls.status}/providers`);
      const text = await res.text();
      expect(text).not.toContain("k3y0123456789abcdef");
      const networks = JSON.parse(text) as { network: string; providers: { label: string; state: string; reason: string | null }[] }[];
      expect(networks.map((n) => n.network)).toEqual(["localhost"]);
      const providers = networks[0]!.providers;
      expect(providers.map((p) => p.label)).toEqual(["dead", "alive"]);
      expect(providers[0]!.reason).toMatch(/Could not connect/);
    } finally {
      await stop();
    }
  });

  it("goes on through the second of two providers when the first dies halfway", async () => {
    const dying = await proxy({ seed: 11, profile: { rate: 0.1 }, dieAfter: 6 });
    const other = await proxy({ seed: 12, profile: { rate: 0.1 } });
    const { node, stop } = await startNodeOn([`localhost:${dying.url}`, `localhost:${other.url}`]);
    try {
      const name = "faults/dies-halfway";
      await deployWithGraphCli(built, name, node.urls);
      await expectCanonical(node, name);
      // It served before it died; the other one carried the rest, and live blocks after.
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 20, batchSize: 5, seed: 13 });
      await expectCanonical(node, name);
      const [first, second] = node.providers().find((n) => n.network === "localhost")!.providers;
      expect(first!.served).toBeGreaterThan(0);
      expect(first!.failed).toBeGreaterThan(0);
      expect(second!.served).toBeGreaterThan(first!.served);
    } finally {
      await stop();
    }
  });
});
