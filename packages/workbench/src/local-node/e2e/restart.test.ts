// Kill -9 in the middle of a sync, start again on the same data: the node resumes from its stored
// block pointer and ends with exactly the chain's approvals (none lost, none twice). Then a kill inside
// one large commit (thousands of entities): the restart resumes right after the last finished commit,
// and its store ends equal, row for row, to a fresh re-index's.
import { watch } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
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
  prepareProcessRun,
  queryAllApprovals,
  spawnNodeProcess,
  startChainWithToken,
  statusOf,
  waitForHead,
  type ChainFixture,
  type NodeProcess,
  type ProcessRun,
} from "./harness.js";
import { createDatabase } from "../store/database.js";

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

  // The "stall" seen on 2026-11-21 (the first node quiet after "indexing from block 2", on Postgres under
  // load, until the deadline) was this test: the status API reads the pointer and counts the entities
  // apart, so a commit landing in between gave entityCount > 0 with no pointer yet; the loop then
  // SIGKILLed the node with -1, its "not killed yet" value, and waited on a dead node. It now kills only
  // once a pointer is stored. E2E_NODE_DEBUG=1 runs the node with debug logs.
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
    let killedAt: number | null = null;
    let last = "no status yet";
    const deadline = Date.now() + 120_000;
    while (killedAt === null) {
      const s = await statusOf(statusUrl, name).catch((e: unknown) => ((last = `status failed: ${(e as Error).message}`), null));
      if (s) last = JSON.stringify(s);
      const pointer = s?.chains[0]?.latestBlock ?? null;
      const latest = Number(pointer?.number ?? -1);
      if (pointer && Number(s?.entityCount ?? 0) > 0 && latest < head) {
        await first.kill("SIGKILL");
        killedAt = latest;
      } else if (latest >= head) {
        throw new Error("the sync finished before it could be interrupted");
      }
      const ended = killedAt === null ? first.ended() : null;
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
    // The approvals and the proof-of-indexing entity, which graph-node counts too.
    expect(Number(status.entityCount)).toBe(COUNT + 1);
    await second.kill("SIGTERM");
  });
});

/**
 * SIGKILLs the node while its store writes its first commit of at least `minChanges` entity changes
 * after an earlier commit (log ranges start small and grow, so which commit that is depends on the
 * ranges): after the debug line `committing blocks A-B: N entity changes`, at the first sign of the store writing (PGlite: a table file under the data
 * dir changes; Postgres: the node's open transaction is running, or has run, its entity insert).
 * Resolves with A, B and N once the process is gone and its pipes are drained.
 */
async function killDuringCommit(proc: NodeProcess, run: ProcessRun, minChanges: number): Promise<{ from: number; to: number; changes: number; sign: string }> {
  const commits = /committing blocks (\d+)-(\d+): (\d+) entity changes/g;
  let line: RegExpMatchArray | null = null;
  let sign = "";
  const kill = (why: string) => {
    if (sign) return;
    sign = why;
    proc.child.kill("SIGKILL");
  };
  const onData = () => (line ??= [...proc.output().matchAll(commits)].slice(1).find((m) => Number(m[3]) >= minChanges) ?? null);
  proc.child.stdout!.on("data", onData);
  proc.child.stderr!.on("data", onData);
  // PGlite writes table pages as the insert runs (its data dir is watched from before the commit).
  const watcher = run.databaseUrl ? null : watch(join(run.dataDir, "pg", "base"), { recursive: true }, (_event, file) => line && kill(`PGlite wrote ${String(file)}`));
  const client = run.databaseUrl ? new pg.Client({ connectionString: run.databaseUrl }) : null;
  await client?.connect();
  const gone = new Promise<void>((resolve) => proc.child.once("close", () => resolve()));
  try {
    const deadline = Date.now() + 120_000;
    while (!sign && proc.ended() === null && Date.now() < deadline) {
      if (line && client) {
        const [active] = (
          await client.query<{ state: string }>(
            `select state from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null
               and state in ('active', 'idle in transaction') and query ilike 'insert into %approval_query%'`,
          )
        ).rows;
        if (active) kill(`Postgres: the node's transaction ${active.state} on its entity insert`);
      } else {
        await new Promise((r) => setTimeout(r, line ? 0 : 5));
      }
    }
  } finally {
    watcher?.close();
    await client?.end();
  }
  if (!sign) throw new Error(`no write of a commit of ${minChanges} changes seen (${proc.ended() ?? "still running"}):\n${proc.output()}`);
  await gone;
  const [, from, to, changes] = line!;
  return { from: Number(from), to: Number(to), changes: Number(changes), sign };
}

/** What a store holds for the deployment: its pointer and health, and every entity row but `vid`. */
async function storeSnapshot(location: { dataDir: string; databaseUrl: string | undefined }, deployment: string): Promise<unknown> {
  const db = await createDatabase(location.databaseUrl ? { databaseUrl: location.databaseUrl } : { dataDir: join(location.dataDir, "pg") });
  try {
    const [meta] = await db.query<{ schema_name: string }>(
      "select schema_name, latest_block_number, latest_block_hash, health, fatal_error, synced from subgraphs.deployment where id = $1",
      [deployment],
    );
    if (!meta) throw new Error(`deployment ${deployment} is not in the store`);
    const rows = await db.query(`select id, owner, spender, value, "block$" from "${meta.schema_name}".approval_query order by id`);
    const { schema_name: _schema, ...pointer } = meta;
    return { pointer, rows };
  } finally {
    await db.close();
  }
}

// Thousands of entities per commit. The kill lands inside the first commit of at least LARGE_COMMIT changes
// after another: a range holds at most about one run of logs and grows below half of one
// (indexerContext.ts), so here ranges, and the commits of their runs, settle at 20 blocks of 100 approvals.
const PER_COMMIT = 4000;
const LARGE_COMMIT = PER_COMMIT / 2;

describe.each(backends())("SIGKILL during a large commit on %s", (backend) => {
  it("restarts from the last finished commit and ends equal to a fresh re-index", async () => {
    const killed = await prepareProcessRun(backend, "local-node-commit-kill-");
    const fresh = await prepareProcessRun(backend, "local-node-commit-fresh-");
    try {
      const name = `e2e/commit-kill-${backend}`;
      const ports = await freePorts();
      const urls = { admin: `http://127.0.0.1:${ports.admin}`, ipfs: `http://127.0.0.1:${ports.ipfs}` };
      const statusUrl = `http://127.0.0.1:${ports.status}`;
      // Debug logs carry the commit lines (the child inherits the variable when it is spawned).
      process.env.E2E_NODE_DEBUG = "1";
      const first = await killed.start({ rpcUrl: fx.chain.url, ports, eventsPerRun: PER_COMMIT }).finally(() => delete process.env.E2E_NODE_DEBUG);
      const killedIn = killDuringCommit(first, killed, LARGE_COMMIT);
      const deployment = await deployWithGraphCli(built, name, urls);
      const { from, to, changes, sign } = await killedIn;
      expect(changes).toBeGreaterThanOrEqual(LARGE_COMMIT);
      expect(sign).toMatch(backend === "pglite" ? /^PGlite wrote / : /^Postgres: /);
      // The first commit finished before the kill; the second had not (its "committed" line never came).
      expect(first.output()).toMatch(/committed blocks \d+-\d+ in \d+ ms/);
      expect(first.output()).not.toContain(`committed blocks ${from}-${to} `);

      // The restart resumes right after the first commit: the one in flight left nothing behind.
      const second = await killed.start({ rpcUrl: fx.chain.url, ports, eventsPerRun: PER_COMMIT });
      const resumed = await waitForOutput(second, /indexing from block (\d+)/, 60_000);
      expect(Number(resumed[1])).toBe(from);
      const status = await waitForHead(statusUrl, name, fx.chain.url, 120_000);
      expect(status.health).toBe("healthy");
      const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
      expect(await queryAllApprovals(`http://127.0.0.1:${ports.query}/subgraphs/name/${name}`)).toEqual(expected);
      // The proof-of-indexing journal came through the kill too: the proof equals the fresh re-index's.
      const head = status.chains[0]!.latestBlock!;
      const restartedProof = await proofAt(statusUrl, deployment, head);
      await second.kill("SIGTERM");

      // A fresh re-index of the same chain, on a store of its own.
      const freshPorts = await freePorts();
      const third = await fresh.start({ rpcUrl: fx.chain.url, ports: freshPorts, eventsPerRun: PER_COMMIT });
      await deployWithGraphCli(built, name, { admin: `http://127.0.0.1:${freshPorts.admin}`, ipfs: `http://127.0.0.1:${freshPorts.ipfs}` });
      await waitForHead(`http://127.0.0.1:${freshPorts.status}`, name, fx.chain.url, 120_000);
      const freshProof = await proofAt(`http://127.0.0.1:${freshPorts.status}`, deployment, head);
      await third.kill("SIGTERM");
      expect(restartedProof).toMatch(/^0x[0-9a-f]{64}$/);
      expect(restartedProof).toBe(freshProof);

      const restarted = await storeSnapshot(killed, deployment);
      const reindexed = await storeSnapshot(fresh, deployment);
      expect((restarted as { rows: unknown[] }).rows).toHaveLength(COUNT);
      expect(restarted).toEqual(reindexed);
    } finally {
      await killed.cleanup();
      await fresh.cleanup();
    }
  });
});

/** The status API's proof of indexing at `block` (no indexer). */
async function proofAt(statusUrl: string, deployment: string, block: { number: string; hash: string }): Promise<string | null> {
  const res = await fetch(`${statusUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `{ p: proofOfIndexing(subgraph: "${deployment}", blockNumber: ${Number(block.number)}, blockHash: "${block.hash}") }` }),
  });
  const body = (await res.json()) as { data?: { p: string | null }; errors?: unknown[] };
  if (body.errors) throw new Error(`proofOfIndexing failed: ${JSON.stringify(body.errors)}`);
  return body.data?.p ?? null;
}

/** Resolves with the first match of `pattern` in the process's output. */
async function waitForOutput(proc: NodeProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(proc.output());
    if (m) return m;
    if (proc.ended() || Date.now() > deadline) throw new Error(`no ${pattern} in the node's output (${proc.ended() ?? "still running"}):\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
