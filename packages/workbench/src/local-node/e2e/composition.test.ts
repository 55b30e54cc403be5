// Subgraph composition on the local node alone: two source subgraphs on a real chain, and a composed
// subgraph (`kind: subgraph` data sources) whose handlers add up their entities per owner. One source is
// paused: the composed subgraph goes only as far as that source has indexed, with exactly the chain's
// approvals up to there; resumed, both catch up to the head and the totals are the chain's, also after a
// reorg that orphans blocks both indexed. Checked
// against the chain's own logs (eth_getLogs), on PGlite.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { parseDocument } from "yaml";
import { sendApprovals } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import { deploySubgraph } from "../../deploy/index.js";
import { blockNumber, chainApprovals, rpc, deployWithGraphCli, graphql, startChainWithToken, startNode, statusOf, waitForHead, waitForStatus, type ChainFixture, type NodeFixture } from "./harness.js";

vi.setConfig({ testTimeout: 400_000, hookTimeout: 240_000 });

const fixtures = join(projectRoot, "testing", "parity", "cases", "_test");
let chain: ChainFixture;
let node: NodeFixture;

beforeAll(async () => {
  chain = await startChainWithToken();
  node = await startNode(chain.chain.url);
});
afterAll(async () => {
  await node?.stop();
  await chain?.stop();
});

async function admin(method: string, params: unknown): Promise<{ result?: unknown; error?: { message: string } }> {
  const res = await fetch(node.node.urls.admin, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as { result?: unknown; error?: { message: string } };
}

/** Per owner: how many approvals the chain logged up to `toBlock` (every block when absent), and their sum. */
async function expectedOwners(toBlock?: number): Promise<{ id: string; grants: number; ticks: number; total: string }[]> {
  const logs = await chainApprovals(chain.chain.url, chain.token.proxy, chain.token.startBlock);
  const blocks = toBlock === undefined ? null : await Promise.all(logs.map(async (l) => Number((await fetchReceiptBlock(l.id.split("-")[0]!)) ?? 0)));
  const owners = new Map<string, { n: number; sum: bigint }>();
  logs.forEach((l, i) => {
    if (blocks && toBlock !== undefined && blocks[i]! > toBlock) return;
    const o = owners.get(l.owner) ?? { n: 0, sum: 0n };
    o.n++;
    o.sum += BigInt(l.value);
    owners.set(l.owner, o);
  });
  // Every approval reaches the composed subgraph twice: as a Grant and as a Tick.
  return [...owners].map(([id, o]) => ({ id, grants: o.n, ticks: o.n, total: (2n * o.sum).toString() })).sort((a, b) => a.id.localeCompare(b.id));
}

async function fetchReceiptBlock(txHash: string): Promise<number | null> {
  const res = await fetch(chain.chain.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getTransactionReceipt", params: [txHash] }) });
  const body = (await res.json()) as { result?: { blockNumber: string } | null };
  return body.result ? Number(body.result.blockNumber) : null;
}

async function owners(): Promise<{ id: string; grants: number; ticks: number; total: string }[]> {
  const res = await graphql<{ owners: { id: string; grants: number; ticks: number; total: string }[] }>(`${node.node.urls.query}/subgraphs/name/comp/composed`, "{ owners(first: 1000, orderBy: id) { id grants ticks total } }");
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data!.owners;
}

it("follows its sources: only as far as a paused source has indexed, then to the head, through a reorg; totals as the chain's", async () => {
  const rpcUrl = chain.chain.url;
  const token = chain.token.proxy;
  await sendApprovals({ rpcUrl, token, count: 12, batchSize: 3, seed: 5 });
  const urls = { admin: node.node.urls.admin, ipfs: node.node.urls.ipfs };
  const ids: string[] = [];
  for (const [name, dir] of [["comp/source-a", "composition-source-a"], ["comp/source-b", "composition-source-b"]] as const) {
    const built = await buildSubgraph({ projectDir: join(fixtures, dir), address: token, startBlock: chain.token.startBlock, network: "localhost" });
    ids.push(await deployWithGraphCli(built, name, urls));
    await waitForHead(node.node.urls.status, name, rpcUrl, 120_000);
  }
  // Source A stops here; B goes on.
  expect((await admin("subgraph_pause", { deployment: ids[0] })).error).toBeUndefined();
  const pausedAt = Number((await statusOf(node.node.urls.status, "comp/source-a"))!.chains[0]!.latestBlock!.number);
  await sendApprovals({ rpcUrl, token, count: 12, batchSize: 4, seed: 7 });
  await waitForHead(node.node.urls.status, "comp/source-b", rpcUrl, 120_000);

  const composed = await buildSubgraph({
    projectDir: join(fixtures, "composition"),
    files: ["subgraph.yaml", "schema.graphql", "src"],
    address: "",
    startBlock: chain.token.startBlock,
    network: "localhost",
    networkFile: false,
    codegenIpfs: node.node.urls.ipfs,
    async prepare(workDir) {
      const path = join(workDir, "subgraph.yaml");
      const doc = parseDocument(await readFile(path, "utf8"));
      ids.forEach((id, i) => doc.setIn(["dataSources", i, "source", "address"], id));
      await writeFile(path, doc.toString());
    },
  });
  // graph-cli's `--network` knows no subgraph data sources: deployed without a network file.
  const out = await deploySubgraph({ name: "comp/composed", versionLabel: "v1", deployUrl: urls.admin, ipfsUrl: urls.ipfs, cwd: composed.workDir });
  expect(out.deploymentId).toMatch(/^Qm/);
  const held = await waitForStatus(node.node.urls.status, "comp/composed", (s) => Number(s.chains[0]?.latestBlock?.number ?? -1) >= pausedAt, 120_000);
  expect(held.health).toBe("healthy");
  // Source A holds it back: a few more polls, still at A's pointer, with A's data only.
  await new Promise((r) => setTimeout(r, 1_500));
  expect(Number((await statusOf(node.node.urls.status, "comp/composed"))!.chains[0]!.latestBlock!.number)).toBe(pausedAt);
  expect(await blockNumber(rpcUrl)).toBeGreaterThan(pausedAt);
  expect(await owners()).toEqual(await expectedOwners(pausedAt));

  expect((await admin("subgraph_resume", { deployment: ids[0] })).error).toBeUndefined();
  await waitForHead(node.node.urls.status, "comp/composed", rpcUrl, 120_000);
  expect(await owners()).toEqual(await expectedOwners());

  // A reorg: blocks the sources and the composed subgraph indexed are orphaned, a longer branch follows.
  const snapshot = await rpc<string>(rpcUrl, "evm_snapshot");
  await sendApprovals({ rpcUrl, token, count: 9, batchSize: 3, seed: 9 });
  await waitForHead(node.node.urls.status, "comp/composed", rpcUrl, 120_000);
  await rpc(rpcUrl, "evm_revert", [snapshot]);
  await sendApprovals({ rpcUrl, token, count: 16, batchSize: 4, seed: 11 });
  await waitForHead(node.node.urls.status, "comp/composed", rpcUrl, 120_000);
  expect(await owners()).toEqual(await expectedOwners());
});
