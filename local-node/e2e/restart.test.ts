// Kill -9 in the middle of a sync, start again on the same data: the node resumes from its stored
// block pointer and ends with exactly the chain's approvals (none lost, none twice).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../hardhat/deploy/approvals.js";
import type { BuiltSubgraph } from "../../lib/subgraphBuild.js";
import {
  backends,
  blockNumber,
  buildFor,
  byId,
  chainApprovals,
  deployWithGraphCli,
  freePorts,
  freshDatabase,
  queryAllApprovals,
  spawnNodeProcess,
  startChainWithToken,
  statusOf,
  waitForHead,
  type ChainFixture,
  type NodeProcess,
} from "./harness.js";

// graph-cli builds and real chains: generous limits for a loaded 2-core CI machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const COUNT = 12_000;
let fx: ChainFixture;
let built: BuiltSubgraph;

beforeAll(async () => {
  fx = await startChainWithToken();
  built = await buildFor(fx.token);
  // 100 approvals per block: the sync commits in 120 steps, so a kill lands between two of them.
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: COUNT, batchSize: 100 });
});
afterAll(async () => {
  await fx?.stop();
});

describe.each(backends())("restart on %s", (backend) => {
  const procs: NodeProcess[] = [];
  let dataDir = "";
  let db: { url: string; drop(): Promise<void> } | undefined;

  afterAll(async () => {
    for (const p of procs) await p.kill("SIGKILL");
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // A stall seen on 2026-11-21 (the first node quiet after "indexing from block 2" on Postgres under a
  // fully loaded run) has not come back since the node reports slow steps and the worker always answers
  // (see the README); the retry it had is gone. `npm test` still runs this file alone after the rest
  // (VITEST_ISOLATED=1, see vitest.config.ts). E2E_NODE_DEBUG=1 runs the node with debug logs.
  it("resumes after SIGKILL mid-sync with the exact final state", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "local-node-restart-"));
    db = backend === "postgres" ? await freshDatabase() : undefined;
    const ports = await freePorts();
    const start = () => spawnNodeProcess({ rpcUrl: fx.chain.url, dataDir, databaseUrl: db?.url, ports, eventsPerRun: 100 });
    const name = `e2e/restart-${backend}`;
    const statusUrl = `http://127.0.0.1:${ports.status}`;
    const head = await blockNumber(fx.chain.url);

    const first = await start();
    procs.push(first);
    await deployWithGraphCli(built, name, { admin: `http://127.0.0.1:${ports.admin}`, ipfs: `http://127.0.0.1:${ports.ipfs}` });
    // Kill as soon as some, but not all, blocks are committed.
    let killedAt = -1;
    let last = "no status yet";
    const deadline = Date.now() + 120_000;
    while (killedAt < 0) {
      const s = await statusOf(statusUrl, name).catch((e: unknown) => ((last = `status failed: ${(e as Error).message}`), null));
      if (s) last = JSON.stringify(s);
      const latest = Number(s?.chains[0]?.latestBlock?.number ?? -1);
      if (Number(s?.entityCount ?? 0) > 0 && latest < head) {
        await first.kill("SIGKILL");
        killedAt = latest;
      } else if (latest >= head) {
        throw new Error("the sync finished before it could be interrupted");
      }
      const ended = killedAt < 0 ? first.ended() : null;
      if (ended) throw new Error(`the node ended (${ended}) before it was killed; last status: ${last}\n${first.output()}`);
      if (Date.now() > deadline) throw new Error(`no partial sync seen; last status: ${last}\n${first.output()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(killedAt).toBeGreaterThanOrEqual(fx.token.startBlock);

    const second = await start();
    procs.push(second);
    expect(second.output()).not.toMatch(/cannot resume/);
    const status = await waitForHead(statusUrl, name, fx.chain.url, 120_000);
    expect(status.health).toBe("healthy");
    const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    expect(expected).toHaveLength(COUNT);
    const got = await queryAllApprovals(`http://127.0.0.1:${ports.query}/subgraphs/name/${name}`);
    expect(got.length).toBe(COUNT);
    expect(got).toEqual(expected);
    expect(Number(status.entityCount)).toBe(COUNT);
    await second.kill("SIGTERM");
  });
});
