// End to end: the real Hardhat chain, the unmodified graph-cli, the local node. Approvals sent
// through the proxy are indexed and queried exactly as the chain logged them (every field, the
// order, paging past 1000); bad deploys are refused and leave the current version serving; a reorg
// made with evm_snapshot/evm_revert replaces orphaned entities. Runs on PGlite, and on Postgres when
// DATABASE_URL is set.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendApprovals } from "../../../../hardhat/deploy/approvals.js";
import type { BuiltSubgraph } from "../lib/subgraphBuild.js";
import {
  backends,
  blockNumber,
  buildFor,
  byId,
  chainApprovals,
  deployWithGraphCli,
  graphql,
  queryAllApprovals,
  rpc,
  startChainWithToken,
  startNode,
  statusOf,
  waitForHead,
  waitForStatus,
  type ChainFixture,
  type NodeFixture,
} from "./e2e/harness.js";

// graph-cli builds and real chains: generous limits for a loaded 2-core CI machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const NAME = "e2e/approvals";
let fx: ChainFixture;
let built: BuiltSubgraph;

beforeAll(async () => {
  fx = await startChainWithToken();
  built = await buildFor(fx.token);
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 1100, batchSize: 250 });
});
afterAll(async () => {
  await fx?.stop();
});

async function adminCall(url: string, method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function ipfsAdd(ipfsUrl: string, text: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([text]), "file");
  const res = await fetch(`${ipfsUrl}/api/v0/add`, { method: "POST", body: form });
  return ((await res.json()) as { Hash: string }).Hash;
}

describe.each(backends())("local node on %s", (backend) => {
  let node: NodeFixture;
  let deploymentId = "";
  let queryUrl = "";

  beforeAll(async () => {
    node = await startNode(fx.chain.url, backend);
    deploymentId = await deployWithGraphCli(built, NAME, node.node.urls);
    queryUrl = `${node.node.urls.query}/subgraphs/name/${NAME}`;
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("indexes every approval sent through the proxy and serves it exactly as logged, paging past 1000", async () => {
    const status = await waitForHead(node.node.urls.status, NAME, fx.chain.url);
    expect(status.health).toBe("healthy");
    expect(status.subgraph).toBe(deploymentId);
    const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    // The suite runs once per backend on one chain: the first run's reorg test adds approvals.
    expect(expected.length).toBeGreaterThanOrEqual(1100);
    const got = await queryAllApprovals(queryUrl);
    expect(got).toEqual(expected);
    // The same through the deployment id, ordered by value descending with the id as tie-breaker.
    const byValue = await graphql<{ approvalQueries: { id: string; value: string }[] }>(`${node.node.urls.query}/subgraphs/id/${deploymentId}`, "{ approvalQueries(first: 5, orderBy: value, orderDirection: desc) { id value } }");
    expect(byValue.data?.approvalQueries[0]?.value).toBe((2n ** 256n - 1n).toString());
    const meta = await graphql<{ _meta: { block: { number: number; hash: string }; deployment: string; hasIndexingErrors: boolean } }>(queryUrl, "{ _meta { block { number hash } deployment hasIndexingErrors } }");
    expect(meta.data?._meta.block.number).toBe(await blockNumber(fx.chain.url));
    expect(meta.data?._meta.deployment).toBe(deploymentId);
    expect(meta.data?._meta.hasIndexingErrors).toBe(false);
    // graph-node counts its proof-of-indexing entity (one per causality region) with the subgraph's.
    expect(Number(status.entityCount)).toBe(expected.length + 1);
    // Bad queries get graph-node's error texts, with no data.
    const tooMany = await graphql(queryUrl, "{ approvalQueries(first: 5000) { id } }");
    expect(tooMany.errors?.[0]?.message).toBe("The `first` argument must be between 0 and 1000, but is 5000");
    const unknownField = await graphql(queryUrl, "{ approvalQueries { nope } }");
    expect(unknownField.errors?.length).toBeGreaterThan(0);
  });

  it("refuses bad deploys with JSON-RPC errors and keeps the current version serving", async () => {
    const admin = node.node.urls.admin;
    const unknown = await adminCall(admin, "subgraph_deploy", { name: NAME, ipfs_hash: "QmWmyoMoctfbAaiEs2G46gpeUmhqFRDW6KWo64y5r581Vz" });
    expect(unknown.error?.message).toBeTruthy();
    const garbage = await ipfsAdd(node.node.urls.ipfs, "specVersion: [unterminated");
    const notYaml = await adminCall(admin, "subgraph_deploy", { name: NAME, ipfs_hash: garbage });
    expect(notYaml.error?.message).toBeTruthy();
    // The deployed manifest with a handler the wasm does not export.
    const manifest = await (await fetch(`${node.node.urls.ipfs}/api/v0/cat?arg=${deploymentId}`, { method: "POST" })).text();
    expect(manifest).toContain("handler: ApprovalHandler");
    const broken = await ipfsAdd(node.node.urls.ipfs, manifest.replace("handler: ApprovalHandler", "handler: MissingHandler"));
    const missing = await adminCall(admin, "subgraph_deploy", { name: NAME, ipfs_hash: broken });
    expect(missing.error?.message).toMatch(/MissingHandler/);
    // Still the same version, still answering.
    expect((await statusOf(node.node.urls.status, NAME))?.subgraph).toBe(deploymentId);
    const count = await graphql<{ approvalQueries: unknown[] }>(queryUrl, "{ approvalQueries(first: 1000) { id } }");
    expect(count.data?.approvalQueries).toHaveLength(1000);
  });

  it("replaces orphaned entities after a reorg (evm_snapshot / evm_revert plus new blocks)", async () => {
    const baseline = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).length;
    const snapshot = await rpc<string>(fx.chain.url, "evm_snapshot");
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 24, batchSize: 8, seed: 100 + backend.length });
    await waitForHead(node.node.urls.status, NAME, fx.chain.url);
    const before = await queryAllApprovals(queryUrl);
    expect(before).toHaveLength(baseline + 24);
    await rpc(fx.chain.url, "evm_revert", [snapshot]);
    await rpc(fx.chain.url, "evm_increaseTime", [30]);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 30, batchSize: 10, seed: 200 + backend.length });
    await rpc(fx.chain.url, "evm_mine");
    const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    expect(expected).toHaveLength(baseline + 30);
    await waitForHead(node.node.urls.status, NAME, fx.chain.url);
    // The head check passes once the new blocks are in; the query must show the canonical chain.
    const after = await queryAllApprovals(queryUrl);
    expect(after).toEqual(expected);
    const orphaned = before.filter((b) => !expected.some((e) => e.id === b.id));
    expect(orphaned).toHaveLength(24);
  });

  it("stops indexing a paused deployment and catches up on resume", async () => {
    const admin = node.node.urls.admin;
    const paused = await adminCall(admin, "subgraph_pause", { deployment: deploymentId });
    expect(paused.error).toBeUndefined();
    const statusUrl = `${node.node.urls.status}/graphql`;
    const latest = async () => {
      const r = await graphql<{ indexingStatuses: { chains: { latestBlock: { number: string } | null }[] }[] }>(statusUrl, `{ indexingStatuses(subgraphs: ["${deploymentId}"]) { chains { latestBlock { number } } } }`);
      return Number(r.data?.indexingStatuses[0]?.chains[0]?.latestBlock?.number ?? -1);
    };
    const before = await latest();
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 5, seed: 300 + backend.length });
    const head = await blockNumber(fx.chain.url);
    expect(head).toBeGreaterThan(before);
    // Several poll intervals (100 ms here) pass without progress while paused.
    await new Promise((r) => setTimeout(r, 800));
    expect(await latest()).toBe(before);
    const resumed = await adminCall(admin, "subgraph_resume", { deployment: deploymentId });
    expect(resumed.error).toBeUndefined();
    await waitForHead(node.node.urls.status, NAME, fx.chain.url);
    expect(await latest()).toBeGreaterThanOrEqual(head);
    const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    expect(await queryAllApprovals(queryUrl)).toEqual(expected);
  });

  it("switches the name to a new version at once (graph-node's instant switching), stops indexing the old one, moves the new one between nodes, and stops it when the name is removed", async () => {
    // Version 2: the same subgraph with a start block one later (the proxy's creation block has no
    // approvals), so a different manifest and deployment id with the same entities.
    const networksPath = join(built.workDir, "networks.json");
    const original = await readFile(networksPath, "utf8");
    const networks = JSON.parse(original) as Record<string, Record<string, { address: string; startBlock: number }>>;
    networks.localhost!.ApprovalToken!.startBlock = fx.token.startBlock + 1;
    await writeFile(networksPath, JSON.stringify(networks));
    let v2 = "";
    try {
      v2 = await deployWithGraphCli(built, NAME, node.node.urls, { versionLabel: "v2" });
    } finally {
      await writeFile(networksPath, original);
    }
    expect(v2).not.toBe(deploymentId);
    // The name serves v2 from the deploy on, synced or not.
    expect((await statusOf(node.node.urls.status, NAME))?.subgraph).toBe(v2);
    const status = await waitForStatus(node.node.urls.status, NAME, (s) => s.subgraph === v2 && s.synced);
    expect(status.synced).toBe(true);
    const meta = await graphql<{ _meta: { deployment: string } }>(queryUrl, "{ _meta { deployment } }");
    expect(meta.data?._meta.deployment).toBe(v2);
    const expected = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    expect(await queryAllApprovals(queryUrl)).toEqual(expected);
    // The first version is still served by its id, but no longer assigned: no node indexes it.
    const old = await graphql<{ _meta: { deployment: string } }>(`${node.node.urls.query}/subgraphs/id/${deploymentId}`, "{ _meta { deployment } }");
    expect(old.data?._meta.deployment).toBe(deploymentId);
    const nodes = async () =>
      (await graphql<{ indexingStatuses: { subgraph: string; node: string | null }[] }>(`${node.node.urls.status}/graphql`, "{ indexingStatuses { subgraph node } }")).data?.indexingStatuses ?? [];
    expect(await nodes()).toEqual(expect.arrayContaining([{ subgraph: deploymentId, node: null }, { subgraph: v2, node: "default" }]));
    expect(node.node.indexer.isIndexing(deploymentId)).toBe(false);
    expect(node.node.indexer.isIndexing(v2)).toBe(true);
    // subgraph_reassign to another node: it is indexed there, not here; and back.
    const reassign = async (nodeId: string) => adminCall(node.node.urls.admin, "subgraph_reassign", { ipfs_hash: v2, node_id: nodeId });
    expect((await reassign("indexer_other")).error).toBeUndefined();
    expect(node.node.indexer.isIndexing(v2)).toBe(false);
    expect(await nodes()).toEqual(expect.arrayContaining([{ subgraph: v2, node: "indexer_other" }]));
    expect((await reassign("default")).error).toBeUndefined();
    expect(node.node.indexer.isIndexing(v2)).toBe(true);
    expect(await nodes()).toEqual(expect.arrayContaining([{ subgraph: v2, node: "default" }]));
    // subgraph_remove: the name goes, and so does the indexing of what it served.
    const removed = await fetch(node.node.urls.admin, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subgraph_remove", params: { name: NAME } }) });
    expect(((await removed.json()) as { error?: unknown }).error).toBeUndefined();
    expect(node.node.indexer.isIndexing(v2)).toBe(false);
    expect(await nodes()).toEqual(expect.arrayContaining([{ subgraph: v2, node: null }]));
  });
});
