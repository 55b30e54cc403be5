// `npm start -- --exit`: the whole main job on this machine, checked against the chain itself.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHardhatNode, type HardhatNode } from "../hardhat/chain/hardhatNode.js";
import { freePort } from "subgraph-workbench/lib/freePort";
import { readNetworks } from "../hardhat/deploy/networks.js";
import { approvalsFromChain } from "./_test/chainApprovals.js";
import { runScript, type ScriptResult } from "./_test/runScript.js";

// Each case runs the whole main job (twice in the first): generous limits for a loaded 2-core machine.
vi.setConfig({ testTimeout: 300_000 });

let chain: HardhatNode;
let dataDir: string;

beforeAll(async () => {
  // The test owns the chain so it can read the logs after `--exit` has stopped everything else.
  chain = await startHardhatNode();
  dataDir = await mkdtemp(join(tmpdir(), "start-"));
  // As root, --postgres runs the server as 'nobody', which must reach the cluster inside.
  await chmod(dataDir, 0o755);
});

afterAll(async () => {
  await chain?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Free ports picked right before each run: picked once for all runs, another test could take one meanwhile. */
async function start(...extra: string[]): Promise<ScriptResult> {
  const ports = ["--query-port", String(await freePort()), "--admin-port", String(await freePort()), "--ipfs-port", String(await freePort()), "--status-port", String(await freePort())];
  return runScript("scripts/start.ts", ["--exit", "--data-dir", dataDir, ...ports, ...extra], { env: { ETHEREUM_RPC: chain.url, SUBGRAPH_NAME: "test/start" } });
}

/** What a failed run printed, for the assertion's message: the last step it reached, and why it ended. */
function output(run: ScriptResult): string {
  return `exit code ${run.code}\n--- stdout (end) ---\n${run.stdout.slice(-4000)}\n--- stderr (end) ---\n${run.stderr.slice(-4000)}`;
}

function tableRows(stdout: string): string[][] {
  const lines = stdout.split("\n");
  const header = lines.findIndex((l) => /^id\s+owner\s+spender\s+value$/.test(l));
  expect(header).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (/^\d+ approvals?$/.test(line) || line.startsWith("... ")) break;
    rows.push(line.trim().split(/\s+/));
  }
  return rows;
}

describe("npm start -- --exit", () => {
  it("lists exactly the chain's Approval logs, then a second run reuses the node's data", async () => {
    const first = await start();
    expect(first.stderr).not.toMatch(/^error:/m);
    expect(first.code, output(first)).toBe(0);
    expect(first.stdout).toMatch(/\[1\/7\] reusing the chain/);
    expect(first.stdout).toMatch(/\[6\/7\] indexed block \d+ of \d+/);
    expect(first.stdout).toMatch(/Queries \(HTTP\): http:\/\/127\.0\.0\.1:\d+\/subgraphs\/name\/test\/start/);
    expect(first.stdout).toMatch(/GraphiQL: +http:\/\/127\.0\.0\.1:\d+\/subgraphs\/name\/test\/start/);

    const token = (await readNetworks()).localhost?.ApprovalToken?.address ?? "";
    const onChain = await approvalsFromChain(chain.url, token);
    expect(onChain.length).toBe(12);
    expect(tableRows(first.stdout)).toEqual(onChain.map((a) => [a.id, a.owner, a.spender, a.value.toString()]));

    // Same chain, same data dir: everything is reused and 12 more approvals join the first ones.
    const second = await start();
    expect(second.code, output(second)).toBe(0);
    expect(second.stdout).toMatch(/\[2\/7\] reusing the token proxy/);
    const again = await approvalsFromChain(chain.url, token);
    expect(again.length).toBe(24);
    expect(tableRows(second.stdout)).toEqual(again.map((a) => [a.id, a.owner, a.spender, a.value.toString()]));
  });

  it("with --postgres, runs the node on a PostgreSQL server from npm with its cluster in the data folder, and stops it on exit", async () => {
    const run = await start("--postgres");
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code, output(run)).toBe(0);
    expect(run.stdout).toMatch(/\[3\/7\] starting the local node \(embedded PostgreSQL on 127\.0\.0\.1:\d+, data in .*postgres;/);
    const token = (await readNetworks()).localhost?.ApprovalToken?.address ?? "";
    const onChain = await approvalsFromChain(chain.url, token);
    expect(tableRows(run.stdout)).toEqual(onChain.map((a) => [a.id, a.owner, a.spender, a.value.toString()]));
    // A real cluster, cleanly shut down: its files stay, its pid file is gone.
    const files = await readdir(join(dataDir, "postgres"));
    expect(files).toContain("PG_VERSION");
    expect(files).not.toContain("postmaster.pid");
  });

  it("with --engine graph-node, serves the same approvals from the real graph-node (gnd from npm)", async () => {
    const run = await start("--engine", "graph-node");
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code, output(run)).toBe(0);
    expect(run.stdout).toMatch(/\[3\/7\] graph-node \(gnd from npm\) starts once the subgraph is built/);
    expect(run.stdout).toMatch(/graph-node indexes .*build\/subgraph\.yaml as test\/start/);
    const token = (await readNetworks()).localhost?.ApprovalToken?.address ?? "";
    const onChain = await approvalsFromChain(chain.url, token);
    expect(tableRows(run.stdout)).toEqual(onChain.map((a) => [a.id, a.owner, a.spender, a.value.toString()]));
  });
});
