// A factory-pattern subgraph (pools from a template with context, vaults from pools, block handlers)
// on a real chain, killed with SIGKILL in the middle of its sync and started again on the same data:
// every entity is checked against the chain's own state (pool totals and deposit counts from the
// contracts, the factory's pool list, Deposit logs, vault pings), on PGlite and on Postgres.
import { join } from "node:path";
import { id as keccakId } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployPoolFactory, readPoolState, readVaultPings, runFactoryScenario, type FactoryActivity } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { backends, blockNumber, deployWithGraphCli, freePorts, graphql, prepareProcessRun, rpc, statusOf, waitForHead, type ProcessRun } from "./harness.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let chain: HardhatNode;
let built: BuiltSubgraph;
let activity: FactoryActivity;
let factory = "";
let startBlock = 0;

beforeAll(async () => {
  chain = await startHardhatNode();
  const deployed = await deployPoolFactory({ rpcUrl: chain.url });
  factory = deployed.factory;
  startBlock = deployed.startBlock;
  activity = await runFactoryScenario({ rpcUrl: chain.url, factory, rounds: 3, batch: 4 });
  built = await buildSubgraph({ projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "factory"), address: factory, startBlock, network: "localhost", dataSource: "PoolFactory" });
});
afterAll(async () => {
  await chain?.stop();
});

type Row = Record<string, unknown>;

async function all(queryUrl: string, field: string, selection: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let skip = 0; ; skip += 1000) {
    const res = await graphql<Record<string, Row[]>>(queryUrl, `{ r: ${field}(first: 1000, skip: ${skip}, orderBy: id) { ${selection} } }`);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    const page = res.data!.r!;
    rows.push(...page);
    if (page.length < 1000) return rows;
  }
}

describe.each(backends())("a factory subgraph on %s", (backend) => {
  let run: ProcessRun | undefined;
  afterAll(async () => {
    await run?.cleanup();
  });

  it("resumes after SIGKILL mid-sync with every created data source, and matches the chain", async () => {
    run = await prepareProcessRun(backend, "local-node-factory-");
    const ports = await freePorts();
    // One trigger per run: each block is its own commit, so the kill lands between creations.
    const start = () => run!.start({ rpcUrl: chain.url, ports, eventsPerRun: 1 });
    const name = `e2e/factory-${backend}`;
    const statusUrl = `http://127.0.0.1:${ports.status}`;
    const head = await blockNumber(chain.url);
    const secondPool = activity.blocks[1]!;

    const first = await start();
    await deployWithGraphCli(built, name, { admin: `http://127.0.0.1:${ports.admin}`, ipfs: `http://127.0.0.1:${ports.ipfs}` });
    let killedAt = -1;
    const deadline = Date.now() + 120_000;
    while (killedAt < 0) {
      const s = await statusOf(statusUrl, name).catch(() => null);
      const latest = Number(s?.chains[0]?.latestBlock?.number ?? -1);
      // Past the second creation block (some pools exist), far from the head (many are still to come).
      if (latest >= secondPool && latest < head - 20) {
        await first.kill("SIGKILL");
        killedAt = latest;
      } else if (latest >= head - 20) {
        throw new Error(`the sync reached block ${latest} of ${head} before it could be interrupted`);
      }
      if (Date.now() > deadline) throw new Error(`no partial sync seen\n${first.output()}`);
      await new Promise((r) => setTimeout(r, 5));
    }

    const second = await start();
    const status = await waitForHead(statusUrl, name, chain.url, 180_000);
    expect(status.health).toBe("healthy");
    expect(second.output()).toMatch(/data source\(s\) created/);
    const queryUrl = `http://127.0.0.1:${ports.query}/subgraphs/name/${name}`;

    // The factory's own list of pools, each with the totals the pool contract holds.
    const pools = await all(queryUrl, "pools", "id total depositCount initBlock createdAtBlock polls");
    expect(pools.map((p) => p.id).sort()).toEqual([...activity.pools].sort());
    for (const p of pools) {
      const onChain = await readPoolState({ rpcUrl: chain.url, pool: String(p.id) });
      expect({ id: p.id, total: p.total, count: p.depositCount }).toEqual({ id: p.id, total: onChain.total.toString(), count: Number(onChain.deposits) });
      // `once` runs at the creation block; `polling every 3` from it to the head.
      expect(p.initBlock).toBe(p.createdAtBlock);
      expect(p.polls).toBe(Math.floor((head - Number(p.createdAtBlock)) / 3) + 1);
    }
    const factoryRow = await graphql<{ factory: { poolCount: number } }>(queryUrl, `{ factory(id: "factory") { poolCount } }`);
    expect(factoryRow.data?.factory.poolCount).toBe(activity.pools.length);

    // Every Deposit log of every pool, once.
    const logs = await rpc<unknown[]>(chain.url, "eth_getLogs", [{ fromBlock: `0x${startBlock.toString(16)}`, toBlock: "latest", address: activity.pools, topics: [keccakId("Deposit(address,uint256)")] }]);
    const deposits = await all(queryUrl, "deposits", "id");
    expect(deposits).toHaveLength(logs.length);

    // Vaults: created by pools; pings counted only from account #1 (the handler's topic1 filter).
    const vaults = await all(queryUrl, "vaults", "id lastCount pingsByAccountOne network");
    expect(vaults.map((v) => v.id).sort()).toEqual([...activity.vaults].sort());
    for (const v of vaults) {
      expect(v.lastCount).toBe((await readVaultPings({ rpcUrl: chain.url, vault: String(v.id) })).toString());
      expect(v.pingsByAccountOne).toBe(2);
      expect(v.network).toBe("localhost");
    }

    // The every-block handler ran once per block from the start block.
    const everyBlock = await graphql<{ traces: unknown[] }>(queryUrl, `{ traces(first: 1000, where: { handler: "handleEveryBlock" }) { id } }`);
    expect(everyBlock.data?.traces).toHaveLength(head - startBlock + 1);
    await second.kill("SIGTERM");
  });
});
