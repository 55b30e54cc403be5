// Debug forks across engines, on one Hardhat chain and the tally fixture (see debugFork.test.ts): the base
// subgraph indexes the first phase on the local node A and on graph-node (`gnd dev` 0.45 from npm, started
// as the parity harness starts it, with GRAPH_FORK_BASE at A's GraphQL); both bases are paused, more
// approvals follow, and the same subgraph starting at those is deployed three times with a debug fork:
// on graph-node forking from A, on A forking from itself, and on a local node B forking from graph-node's
// GraphQL (by subgraph name: gnd dev's deployment ids are paths). Every fork must hold the chain's
// totals over both phases, and graph-node's fork and the local node's fork of the same base the same rows.
// These run a variant whose `lastSpender` is plain Bytes: graph-node's fork reads a reference as a String,
// which a reference to a Bytes-id type refuses; the fixture as it is shows that failure beside the local
// node's fork, which reads the reference by its target's id type.
import { join } from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { graphCli } from "../../lib/graphCli.js";
import { freePort } from "../../lib/freePort.js";
import { callAdmin, nameDeployment, startGraphNodeEngine, type GraphNodeEngine } from "../../graph-node/index.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { readFile, writeFile } from "node:fs/promises";
import { chainForkTallies, type ForkTallies } from "./forkTallies.js";
import { blockNumber, chainApprovals, graphql, startChainWithToken, waitForHead, waitForStatus, type ChainFixture, type StatusInfo } from "./harness.js";

vi.setConfig({ testTimeout: 600_000, hookTimeout: 600_000 });

const FIXTURE = join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "fork-tally");
const TALLIES = "{ owners(first: 1000) { id approvals total big label lastSpender } spenders(first: 1000) { id approvals } }";
const TALLIES_WITH_REFERENCE = TALLIES.replace("lastSpender", "lastSpender { id }");


let fixture: ChainFixture;
let a: LocalNode;
let b: LocalNode;
let gnd: GraphNodeEngine;
const dirs: string[] = [];
let baseIdA = "";
let refBaseIdA = "";

/** Deploys a base build on A with graph-cli; answers its deployment id. */
async function deployBase(built: BuiltSubgraph, name: string): Promise<string> {
  await graphCli(["create", "--node", a.urls.admin, name], { cwd: built.workDir });
  const deployed = await graphCli(["deploy", "--node", a.urls.admin, "--ipfs", a.urls.ipfs, "--version-label", "v1", "--network", "localhost", "--network-file", "networks.json", name], { cwd: built.workDir });
  const id = /(Qm[1-9A-HJ-NP-Za-km-z]{44})/.exec(deployed.stdout)?.[1];
  if (!id) throw new Error(`graph deploy printed no deployment id:\n${deployed.stdout}`);
  return id;
}
let phase2From = 0;
let gndForkStatus: StatusInfo | null = null;
let gndRefStatus: StatusInfo | null = null;

/** The fixture with `lastSpender: Bytes!` instead of a reference (written into the build's work copy). */
async function withoutReference(workDir: string): Promise<void> {
  const file = join(workDir, "schema.graphql");
  const text = await readFile(file, "utf8");
  const plain = text.replace("lastSpender: Spender!", "lastSpender: Bytes!");
  if (plain === text) throw new Error("the fork-tally schema has no `lastSpender: Spender!` to rewrite");
  await writeFile(file, plain);
}

async function localNode(url: string, forkBase: string, queryPort = 0): Promise<LocalNode> {
  const dataDir = await mkdtemp(join(tmpdir(), "local-node-fork-"));
  dirs.push(dataDir);
  return createLocalNode({ ethereumRpc: url, dataDir, ports: { query: queryPort, admin: 0, ipfs: 0, status: 0 }, log: () => undefined, pollIntervalMs: 100, forkBase });
}

async function deployForked(node: LocalNode, built: BuiltSubgraph, name: string, fork: string): Promise<void> {
  await graphCli(["create", "--node", node.urls.admin, name], { cwd: built.workDir });
  await graphCli(["deploy", "--node", node.urls.admin, "--ipfs", node.urls.ipfs, "--version-label", "v1", "--network", "localhost", "--network-file", "networks.json", "--debug-fork", fork, name], { cwd: built.workDir });
}

async function tallies(url: string, query = TALLIES): Promise<ForkTallies> {
  const r = await graphql<ForkTallies>(url, query);
  if (r.errors) throw new Error(`${url}: ${JSON.stringify(r.errors)}`);
  return r.data!;
}

const gndStatus = (): string => gnd.urls.status.replace(/\/graphql$/, "");

beforeAll(async () => {
  fixture = await startChainWithToken();
  const url = fixture.chain.url;
  const token = fixture.token.proxy.toLowerCase();
  await sendApprovals({ rpcUrl: url, token, count: 20 });

  // A forks from its own GraphQL: its query port is chosen first.
  const portA = await freePort();
  a = await localNode(url, `http://127.0.0.1:${portA}/subgraphs/id/`, portA);
  const builtBase = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: fixture.token.startBlock, network: "localhost", prepare: withoutReference });
  baseIdA = await deployBase(builtBase, "fork/base");
  const builtRefBase = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: fixture.token.startBlock, network: "localhost" });
  refBaseIdA = await deployBase(builtRefBase, "fork/base-ref");

  gnd = await startGraphNodeEngine({
    manifests: [join(builtBase.workDir, "subgraph.yaml")],
    networks: [{ name: "localhost", url }],
    ipfs: new URL(a.urls.ipfs).host,
    ports: { query: 0, admin: 0, status: 0, metrics: 0 },
    // graph-node's fork base, by its environment variable (gnd dev's launcher options read it).
    env: { ETHEREUM_POLLING_INTERVAL: "200", GRAPH_FORK_BASE: `${a.urls.query}/subgraphs/id/` },
  });
  await nameDeployment(gnd.urls.admin, "fork_base", gnd.deployments[0]!);
  await waitForHead(a.urls.status, "fork/base", url, 120_000);
  await waitForHead(a.urls.status, "fork/base-ref", url, 120_000);
  await waitForHead(gndStatus(), "fork_base", url, 180_000);
  // The bases stop where the forks read them: their tallies are those of the first phase.
  expect(await callAdmin(a.urls.admin, "subgraph_pause", { deployment: baseIdA })).toEqual({ result: null });
  expect(await callAdmin(a.urls.admin, "subgraph_pause", { deployment: refBaseIdA })).toEqual({ result: null });
  expect(await callAdmin(gnd.urls.admin, "subgraph_pause", { deployment: gnd.deployments[0]! })).toEqual({ result: null });

  phase2From = (await blockNumber(url)) + 1;
  await sendApprovals({ rpcUrl: url, token, count: 6, seed: 5 });
  const builtFork = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: phase2From, network: "localhost", prepare: withoutReference });
  const builtRefFork = await buildSubgraph({ projectDir: FIXTURE, address: token, startBlock: phase2From, network: "localhost" });

  // graph-node forking from A, through its admin API (gnd dev names a build by its manifest's path).
  expect(await callAdmin(gnd.urls.admin, "subgraph_create", { name: "fork_forked" })).toHaveProperty("result");
  expect(await callAdmin(gnd.urls.admin, "subgraph_deploy", { name: "fork_forked", ipfs_hash: join(builtFork.buildDir, "subgraph.yaml"), debug_fork: baseIdA })).toHaveProperty("result");
  expect(await callAdmin(gnd.urls.admin, "subgraph_create", { name: "fork_ref" })).toHaveProperty("result");
  expect(await callAdmin(gnd.urls.admin, "subgraph_deploy", { name: "fork_ref", ipfs_hash: join(builtRefFork.buildDir, "subgraph.yaml"), debug_fork: refBaseIdA })).toHaveProperty("result");
  // A forking from itself, and B from graph-node's GraphQL by the base's subgraph name.
  await deployForked(a, builtFork, "fork/self", baseIdA);
  await deployForked(a, builtRefFork, "fork/self-ref", refBaseIdA);
  b = await localNode(url, `${gnd.urls.query}/subgraphs/name/`);
  await deployForked(b, builtFork, "fork/forked", "fork_base");

  gndForkStatus = await waitForHead(gndStatus(), "fork_forked", url, 180_000);
  await waitForHead(a.urls.status, "fork/self", url, 120_000);
  await waitForHead(a.urls.status, "fork/self-ref", url, 120_000);
  gndRefStatus = await waitForStatus(gndStatus(), "fork_ref", (st) => st.fatalError !== null, 180_000);
  await waitForHead(b.urls.status, "fork/forked", url, 120_000);
});

afterAll(async () => {
  await b?.close();
  await gnd?.close();
  await a?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await fixture?.stop();
});

/** The chain's totals, over both phases, of the owners and spenders the second phase touched. */
function chainTallies(reference = false): Promise<ForkTallies> {
  return chainForkTallies(fixture.chain.url, fixture.token.proxy.toLowerCase(), fixture.token.startBlock, phase2From, reference);
}

describe("debug forks between the local node and graph-node", () => {
  it("the bases agree on the first phase (the forks read the same tallies from either)", async () => {
    expect(await tallies(`${gnd.urls.query}/subgraphs/name/fork_base`)).toEqual(await tallies(`${a.urls.query}/subgraphs/name/fork/base`));
  });

  it("the local node forking from graph-node's GraphQL continues graph-node's tallies", async () => {
    const expected = await chainTallies();
    expect(expected.owners.every((o) => o.approvals > 1)).toBe(true);
    expect(await tallies(`${b.urls.query}/subgraphs/name/fork/forked`)).toEqual(expected);
  });

  it("graph-node forking from the local node holds what the local node forking the same base holds, the chain's totals", async () => {
    expect({ health: gndForkStatus?.health, fatalError: gndForkStatus?.fatalError, log: gndForkStatus?.health === "healthy" ? [] : gnd.logTail().filter((l) => /fork|error|fail/i.test(l)).slice(-15) }).toEqual({ health: "healthy", fatalError: null, log: [] });
    const fromGraphNode = await tallies(`${gnd.urls.query}/subgraphs/name/fork_forked`);
    const fromLocal = await tallies(`${a.urls.query}/subgraphs/name/fork/self`);
    expect(fromGraphNode).toEqual(fromLocal);
    expect(fromLocal).toEqual(await chainTallies());
  });

  it("graph-node's fork cannot read a reference to a Bytes-id type; the local node's fork of the same base can", async () => {
    // graph-node decodes `{ id }` as a String whatever the target's id type (fork.rs), then refuses the entity.
    expect(gndRefStatus?.health).toBe("failed");
    expect(gndRefStatus?.fatalError?.message).toMatch(/Entity Owner\[0x[0-9a-f]{40}\]: the value `0x[0-9a-f]{40}` for field `lastSpender` must have type Spender! but has type String/);
    expect(await tallies(`${a.urls.query}/subgraphs/name/fork/self-ref`, TALLIES_WITH_REFERENCE)).toEqual(await chainTallies(true));
  });
});
