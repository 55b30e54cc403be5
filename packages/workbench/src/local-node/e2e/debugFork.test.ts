// Debug forks between two local nodes on one Hardhat chain: node A indexes the tally fixture from the
// token's first block and is paused; more approvals follow; node B, started with `--fork-base` at A's
// GraphQL, gets the same subgraph starting at the later approvals, deployed by the unmodified graph-cli
// with `graph deploy --debug-fork <A's deployment>`. B's handlers load owners and spenders it never
// wrote: they come from A, so B's tallies must be the chain's totals over both phases (checked against
// the chain's own logs), and owners only the first phase touched stay absent from B.
import { join } from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import { graphCli } from "../../lib/graphCli.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { chainForkTallies, INT8_STEP } from "./forkTallies.js";
import { blockNumber, chainApprovals, deployWithGraphCli, graphql, startChainWithToken, startNode, waitForHead, waitForStatus, type ChainFixture, type NodeFixture } from "./harness.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const FIXTURE = join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "fork-tally");

interface OwnerRow {
  id: string;
  approvals: number;
  total: string;
  big: string;
  label: string;
  lastSpender: { id: string };
}

let fixture: ChainFixture;
let a: NodeFixture;
let b: LocalNode;
let bDir = "";
let baseId = "";
let phase2From = 0;
const bLogs: string[] = [];

async function owners(queryUrl: string): Promise<OwnerRow[]> {
  const r = await graphql<{ owners: OwnerRow[] }>(queryUrl, "{ owners(first: 1000) { id approvals total big label lastSpender { id } } }");
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data!.owners;
}

async function spenders(queryUrl: string): Promise<{ id: string; approvals: number }[]> {
  const r = await graphql<{ spenders: { id: string; approvals: number }[] }>(queryUrl, "{ spenders(first: 1000) { id approvals } }");
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data!.spenders;
}

async function admin(url: string, method: string, params: unknown): Promise<{ result?: unknown; error?: { message: string } }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as { result?: unknown; error?: { message: string } };
}

beforeAll(async () => {
  fixture = await startChainWithToken();
  const url = fixture.chain.url;
  const token = fixture.token.proxy.toLowerCase();
  await sendApprovals({ rpcUrl: url, token, count: 20 });
  a = await startNode(url);
  const builtBase = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: fixture.token.startBlock, network: "localhost" });
  baseId = await deployWithGraphCli(builtBase, "fork/base", { admin: a.node.urls.admin, ipfs: a.node.urls.ipfs });
  await waitForHead(a.node.urls.status, "fork/base", url);
  // A stops where the fork will read it: its tallies are those of the first phase.
  expect((await admin(a.node.urls.admin, "subgraph_pause", { deployment: baseId })).error).toBeUndefined();

  phase2From = (await blockNumber(url)) + 1;
  await sendApprovals({ rpcUrl: url, token, count: 6, seed: 5 });

  bDir = await mkdtemp(join(tmpdir(), "local-node-fork-"));
  b = await createLocalNode({
    ethereumRpc: url,
    dataDir: bDir,
    ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
    log: (line) => bLogs.push(line),
    pollIntervalMs: 100,
    forkBase: `${a.node.urls.query}/subgraphs/id`,
  });
  const builtFork = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: phase2From, network: "localhost" });
  await graphCli(["create", "--node", b.urls.admin, "fork/forked"], { cwd: builtFork.workDir });
  await graphCli(["deploy", "--node", b.urls.admin, "--ipfs", b.urls.ipfs, "--version-label", "v1", "--network", "localhost", "--network-file", "networks.json", "--debug-fork", baseId, "fork/forked"], { cwd: builtFork.workDir });
  await waitForHead(b.urls.status, "fork/forked", url);
});

afterAll(async () => {
  await b?.close();
  if (bDir) await rm(bDir, { recursive: true, force: true });
  await a?.stop();
  await fixture?.stop();
});

describe("a debug fork of a deployment on another local node", () => {
  it("continues the base's tallies: B's owners and spenders are the chain's totals over both phases", async () => {
    const phase2 = await chainApprovals(fixture.chain.url, fixture.token.proxy.toLowerCase(), phase2From);
    expect(phase2).toHaveLength(6);
    const { owners: expected, spenders: expectedSpenders } = await chainForkTallies(fixture.chain.url, fixture.token.proxy.toLowerCase(), fixture.token.startBlock, phase2From, true);
    // The fetch really happened: every touched owner had approvals before the fork's start block.
    expect(expected.every((o) => o.approvals > 1)).toBe(true);
    expect(await owners(`${b.urls.query}/subgraphs/name/fork/forked`)).toEqual(expected);

    expect(await spenders(`${b.urls.query}/subgraphs/name/fork/forked`)).toEqual(expectedSpenders);
  });

  it("read A's entities as A serves them: each fetched owner is A's with the second phase added", async () => {
    const fromA = new Map((await owners(`${a.node.urls.query}/subgraphs/name/fork/base`)).map((o) => [o.id, o]));
    const phase2 = await chainApprovals(fixture.chain.url, fixture.token.proxy.toLowerCase(), phase2From);
    for (const o of await owners(`${b.urls.query}/subgraphs/name/fork/forked`)) {
      const base = fromA.get(o.id)!;
      const added = phase2.filter((x) => x.owner === o.id);
      expect(o.approvals).toBe(base.approvals + added.length);
      expect(BigInt(o.total)).toBe(BigInt(base.total) + added.reduce((s, x) => s + BigInt(x.value), 0n));
      expect(BigInt(o.big)).toBe(BigInt(base.big) + INT8_STEP * BigInt(added.length));
    }
    expect(bLogs.some((l) => l.includes(`debug fork of ${baseId}`))).toBe(true);
  });

  it("a fork id the base does not serve fails the deployment non-deterministically, with the base's answer; the node serves on", async () => {
    const unknown = `Qm${"x".repeat(44)}`;
    const token = fixture.token.proxy.toLowerCase();
    // The base's build on B (a deployment B does not have yet), forking from an id A has never seen.
    const built = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: fixture.token.startBlock, network: "localhost" });
    await graphCli(["create", "--node", b.urls.admin, "fork/unknown"], { cwd: built.workDir });
    await graphCli(["deploy", "--node", b.urls.admin, "--ipfs", b.urls.ipfs, "--version-label", "v1", "--network", "localhost", "--network-file", "networks.json", "--debug-fork", unknown, "fork/unknown"], { cwd: built.workDir });
    const failed = await waitForStatus(b.urls.status, "fork/unknown", (st) => st.fatalError !== null, 120_000);
    expect(failed.health).toBe("failed");
    expect(failed.fatalError!.message).toContain(`subgraph forking failed: the GraphQL query Query { query: "query Query ($id: String) {`);
    // The endpoint is masked as any URL in a message (a long path segment may be a key); the base names the id.
    expect(failed.fatalError!.message).toContain(`to \`${a.node.urls.query}/subgraphs/id/***\` failed with "{"errors":[{"message":"deployment \`${unknown}\` does not exist"}]}"`);
    // Nothing else stopped: the other fork still answers.
    expect((await owners(`${b.urls.query}/subgraphs/name/fork/forked`)).length).toBeGreaterThan(0);
  });
});
