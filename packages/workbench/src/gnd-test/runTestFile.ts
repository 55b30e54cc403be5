// One `gnd test` file on the local node: the file's chain served over JSON-RPC, its files over IPFS, a
// fresh node (PGlite in memory) with the build deployed, indexing to the file's last block, then each
// assertion's query against the deployment. As gnd: a handler's fatal error, an unmocked call or a
// missing file fails the test without running its assertions; the sync waits at most 60 s.
import { readFile } from "node:fs/promises";
import { parseManifestYaml } from "../lib/manifestYaml.js";
import { uploadBuild } from "../deploy/index.js";
import { createJsonRpcClient } from "../json-rpc/index.js";
import { createLocalNode, type LocalNode } from "../local-node/index.js";
import { jsonEqual } from "./assertions.js";
import { buildMockChain } from "./mockChain.js";
import { startMockIpfs, type MockIpfs } from "./mockIpfs.js";
import { startMockRpc, type MockRpc } from "./mockRpc.js";
import type { AssertionOutcome, TestResult } from "./report.js";
import { readTestFile, type Json } from "./testFile.js";

export interface RunTestFileOptions {
  /** graph-cli's built manifest (build/subgraph.yaml). */
  manifestPath: string;
  /** The project whose graph-cli made the build: the upload writes the manifest as it does (default: the current directory). */
  projectDir?: string;
  /** Sync deadline (gnd: 60 s). */
  timeoutMs?: number;
  /** The node's log lines (quiet when absent). */
  log?: (line: string) => void;
}

const SYNC_TIMEOUT_MS = 60_000;

export async function runTestFile(path: string, options: RunTestFileOptions): Promise<TestResult> {
  let name = path;
  const failed = (handlerError: string): TestResult => ({ file: path, name, handlerError, assertions: [] });
  let rpc: MockRpc | undefined;
  let ipfs: MockIpfs | undefined;
  let node: LocalNode | undefined;
  try {
    const test = await readTestFile(path);
    name = test.name;
    const chain = buildMockChain(test, await lowestStartBlock(options.manifestPath));
    rpc = await startMockRpc(chain);
    ipfs = await startMockIpfs(test.files, path);
    node = await createLocalNode({
      ethereumRpc: rpc.url,
      ipfsUrl: ipfs.url,
      ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
      pollIntervalMs: 50,
      log: options.log ?? (() => undefined),
    });
    const deployment = await uploadBuild(options.manifestPath, node.ipfs, options.projectDir ? { projectDir: options.projectDir } : {});
    const admin = createJsonRpcClient({ url: node.urls.admin });
    await admin.request("subgraph_create", { name: "gnd-test/subgraph" });
    await admin.request("subgraph_deploy", { name: "gnd-test/subgraph", ipfs_hash: deployment });
    const synced = await waitForBlock(node, deployment, chain.head, rpc, ipfs, options.timeoutMs ?? SYNC_TIMEOUT_MS);
    if (synced !== null) return failed(synced);
    const assertions: AssertionOutcome[] = [];
    for (const a of test.assertions) assertions.push(await runAssertion(`${node.urls.query}/subgraphs/id/${deployment}`, a.query, a.expected));
    return { file: path, name, handlerError: null, assertions };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    await node?.close().catch(() => undefined);
    await rpc?.close().catch(() => undefined);
    await ipfs?.close().catch(() => undefined);
  }
}

/** gnd numbers blocks from the lowest startBlock of the manifest's data sources (0 when none is set). */
async function lowestStartBlock(manifestPath: string): Promise<number> {
  const manifest = parseManifestYaml(await readFile(manifestPath, "utf8")) as { dataSources?: { source?: { startBlock?: unknown } }[] } | null;
  const blocks = (manifest?.dataSources ?? []).map((d) => Number(d.source?.startBlock ?? 0)).filter((n) => Number.isSafeInteger(n) && n >= 0);
  return blocks.length === 0 ? 0 : Math.min(...blocks);
}

/** null once the deployment has indexed `head`; otherwise why the test fails (gnd's words where it has them). */
async function waitForBlock(node: LocalNode, deployment: string, head: number, rpc: MockRpc, ipfs: MockIpfs, timeoutMs: number): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (rpc.unmocked.length > 0) return [...new Set(rpc.unmocked)].join("\n");
    const record = await node.store.getDeployment(deployment);
    if (record?.fatalError) return formatHandlerError(record.fatalError);
    if (record?.latestBlock && record.latestBlock.number >= head) {
      if (ipfs.missing.size === 0) return null;
      return `IPFS CIDs not found in mock 'files':\n${[...ipfs.missing].map((c) => `  - ${c}`).join("\n")}\nAdd the missing CID(s) to the "files" array in your test JSON.`;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return `Sync timeout after ${Math.round(timeoutMs / 1000)}s`;
}

function formatHandlerError(error: { message: string; handler: string | null; block: { number: number } | null }): string {
  const location = [error.handler ? `in ${error.handler}` : "", error.block ? `at block #${error.block.number}` : ""].filter(Boolean).join(" ");
  return location ? `${location}: ${error.message}` : error.message;
}

async function runAssertion(queryUrl: string, query: string, expected: Json): Promise<AssertionOutcome> {
  const res = await fetch(queryUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query }) });
  const body = (await res.json()) as { data?: Json; errors?: { message: string }[] };
  if (body.errors?.length) return { query, passed: false, expected, actual: { error: `Query errors: ${JSON.stringify(body.errors.map((e) => e.message))}` } };
  const actual = body.data ?? null;
  return jsonEqual(actual, expected) ? { query, passed: true } : { query, passed: false, expected, actual };
}
