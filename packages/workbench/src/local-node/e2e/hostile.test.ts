// Hostile input against a real node (the node command (`commands/node.ts`) as a child process, on free ports, PGlite):
// oversized bodies, deep nesting, thousands of aliases, browser pages of other sites, malformed request
// lines, a mapping stuck in an endless loop, and one that allocates without end. After every case the
// node must be alive: the process runs, the status API answers, and the healthy deployment's data equals
// the chain's Approval logs.
import { connect } from "node:net";
import { request } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Contract } from "ethers";
import { readArtifact } from "../../../../../hardhat/deploy/artifacts.js";
import { connectChain } from "../../../../../hardhat/deploy/signers.js";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import type { BuiltSubgraph } from "../../lib/subgraphBuild.js";
import {
  blockNumber,
  buildFor,
  byId,
  chainApprovals,
  deployWithGraphCli,
  freePorts,
  graphql,
  queryAllApprovals,
  spawnNodeProcess,
  startChainWithToken,
  statusOf,
  waitForHead,
  waitForStatus,
  type ChainFixture,
  type NodeProcess,
} from "./harness.js";
import type { LocalNodePorts } from "../index.js";

// Two node processes, graph-cli builds and deploys, a real chain: generous limits for a 2-core machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const runawayFixture = join(fileURLToPath(new URL(".", import.meta.url)), "_test", "runaway");
const hogFixture = join(fileURLToPath(new URL(".", import.meta.url)), "_test", "hog");
const HEALTHY = "hostile/healthy";
const RUNAWAY = "hostile/runaway";
const HOG = "hostile/hog";

let fx: ChainFixture;
let healthyBuild: BuiltSubgraph;
let runawayBuild: BuiltSubgraph;
let hogBuild: BuiltSubgraph;

interface RunningNode {
  proc: NodeProcess;
  ports: LocalNodePorts;
  urls: { query: string; admin: string; ipfs: string; status: string };
  dataDir: string;
  stop(): Promise<void>;
}

/** The node CLI on free ports with its own data dir; `env` is set for the child only. */
async function startNodeProcess(env: Record<string, string>): Promise<RunningNode> {
  const ports = await freePorts();
  const dataDir = await mkdtemp(join(tmpdir(), "hostile-node-"));
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let proc: NodeProcess;
  try {
    proc = await spawnNodeProcess({ rpcUrl: fx.chain.url, dataDir, ports });
  } finally {
    for (const [k, v] of Object.entries(saved)) (v === undefined ? delete process.env[k] : (process.env[k] = v));
  }
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return {
    proc,
    ports,
    urls: { query: url(ports.query), admin: url(ports.admin), ipfs: url(ports.ipfs), status: url(ports.status) },
    dataDir,
    async stop() {
      await proc.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Raw bytes to a port (what fetch refuses to send); the whole answer as text ("" if the server hung up). */
function rawRequest(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    let answer = "";
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => resolve(answer));
  });
}

/** A request with a Host header of our choosing (fetch cannot set Host). */
function withHost(url: string, host: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { Host: host, "Content-Type": "application/json", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Sends one approval of `value` from signer 3; resolves with its block. */
async function approve(value: bigint): Promise<number> {
  const { provider, signers } = await connectChain(fx.chain.url);
  try {
    const token = new Contract(fx.token.proxy, (await readArtifact("ApprovalToken")).abi, signers[3]);
    const tx = (await token.getFunction("approve")("0x0000000000000000000000000000000000000007", value)) as { wait(): Promise<{ blockNumber: number }> };
    return (await tx.wait()).blockNumber;
  } finally {
    provider.destroy();
  }
}

/** The node is alive: its process runs, the status API answers, and the healthy data equals the chain. */
async function expectAlive(node: RunningNode): Promise<void> {
  expect(node.proc.ended(), node.proc.output().slice(-3000)).toBeNull();
  const status = await waitForHead(node.urls.status, HEALTHY, fx.chain.url);
  expect(status.health).toBe("healthy");
  const onChain = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
  expect(await queryAllApprovals(`${node.urls.query}/subgraphs/name/${HEALTHY}`)).toEqual(onChain);
}

beforeAll(async () => {
  fx = await startChainWithToken();
  healthyBuild = await buildFor(fx.token);
  runawayBuild = await buildFor(fx.token, runawayFixture);
  hogBuild = await buildFor(fx.token, hogFixture);
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 20, batchSize: 10 });
});
afterAll(async () => {
  await fx?.stop();
});

describe("hostile input against a running node", () => {
  let node: RunningNode;

  beforeAll(async () => {
    // A low memory cap: the hog reaches it in a fraction of the 3 s handler timeout, even on a loaded machine.
    node = await startNodeProcess({ GRAPH_MAPPING_HANDLER_TIMEOUT: "3", LOCAL_NODE_MAPPING_MAX_MEMORY_MB: "64" });
    await deployWithGraphCli(healthyBuild, HEALTHY, node.urls);
    await expectAlive(node);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("takes a 100 MB body on each port: refused past the port's cap (or stored, by IPFS add), and stays up", async () => {
    const big = Buffer.alloc(100 * 1024 * 1024, 0x61);
    const boundary = "hostileboundary";
    const multipart = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big"\r\nContent-Type: application/octet-stream\r\n\r\n`), big, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const targets: [string, Buffer, string][] = [
      [`${node.urls.query}/subgraphs/name/${HEALTHY}`, big, "application/json"],
      [node.urls.admin, big, "application/json"],
      [`${node.urls.status}/graphql`, big, "application/json"],
      [`${node.urls.ipfs}/api/v0/add`, multipart, `multipart/form-data; boundary=${boundary}`],
    ];
    for (const [url, body, type] of targets) {
      const outcome = await fetch(url, { method: "POST", body: new Uint8Array(body), headers: { "content-type": type } }).then(
        (res) => res.status,
        () => "connection closed",
      );
      // A client error, or the server hanging up on a body it will not read; IPFS stores it as Kubo would.
      if (url.includes("/api/v0/add")) expect(outcome).toBe(200);
      else expect([400, 413, "connection closed"], url).toContain(outcome);
      await expectAlive(node);
    }
  });

  it("answers 10,000-deep nesting with graph-node's depth error on the query and status ports", async () => {
    const deep = "{" + "approvalQueries{".repeat(10_000) + "id" + "}".repeat(10_001);
    const depthError = { errors: [{ message: "query has a depth that exceeds the limit of `255`" }] };
    expect(await graphql(`${node.urls.query}/subgraphs/name/${HEALTHY}`, deep)).toEqual(depthError);
    expect(await graphql(`${node.urls.status}/graphql`, deep)).toEqual(depthError);
    const deepWhere = `{ approvalQueries(where: ${"{and: [".repeat(10_000)}{}${"]}".repeat(10_000)}) { id } }`;
    expect(await graphql(`${node.urls.query}/subgraphs/name/${HEALTHY}`, deepWhere)).toEqual(depthError);
    await expectAlive(node);
  });

  it("answers 20,000 aliased first: 1000 collections with a limit error within 10 s", async () => {
    const query = "{" + Array.from({ length: 20_000 }, (_, i) => `a${i}: approvalQueries(first: 1000) { id }`).join(" ") + "}";
    const started = Date.now();
    const answer = await graphql(`${node.urls.query}/subgraphs/name/${HEALTHY}`, query);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toEqual({ errors: [{ message: "query has more than 50000 tokens, the limit LOCAL_NODE_GRAPHQL_MAX_TOKENS sets" }] });
    // Under the token budget, the field limit answers.
    const fewerTokens = "{" + Array.from({ length: 6000 }, (_, i) => `a${i}: approvalQueries { id }`).join(" ") + "}";
    expect((await graphql(`${node.urls.query}/subgraphs/name/${HEALTHY}`, fewerTokens)).errors?.[0]?.message).toMatch(/^query selects more than 5000 fields/);
    await expectAlive(node);
  });

  it("refuses cross-origin admin calls: a page's no-cors text/plain POST, a foreign Origin, DNS rebinding", async () => {
    const remove = JSON.stringify({ jsonrpc: "2.0", method: "subgraph_remove", params: { name: HEALTHY }, id: 1 });
    // What any page may send with mode: "no-cors": a text/plain POST.
    const plain = await fetch(node.urls.admin, { method: "POST", body: remove, headers: { "content-type": "text/plain;charset=UTF-8", Origin: "https://evil.example" } });
    expect(plain.status).toBe(403);
    const plainNoOrigin = await fetch(node.urls.admin, { method: "POST", body: remove, headers: { "content-type": "text/plain;charset=UTF-8" } });
    expect(plainNoOrigin.status).toBe(415);
    const foreign = await fetch(node.urls.admin, { method: "POST", body: remove, headers: { "content-type": "application/json", Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(await withHost(node.urls.admin, `rebound.evil.example:${node.ports.admin}`, remove)).toBe(403);
    // The same page against the other ports.
    for (const [url, path] of [[node.urls.query, `/subgraphs/name/${HEALTHY}`], [node.urls.status, "/graphql"], [node.urls.ipfs, "/api/v0/version"]] as const) {
      expect((await fetch(`${url}${path}`, { method: "POST", body: '{"query":"{ _meta { deployment } }"}', headers: { "content-type": "application/json", Origin: "https://evil.example" } })).status, url).toBe(403);
      expect(await withHost(`${url}${path}`, `rebound.evil.example:${new URL(url).port}`, '{"query":"{ _meta { deployment } }"}'), url).toBe(403);
    }
    expect((await statusOf(node.urls.status, HEALTHY))?.subgraph).toMatch(/^Qm/);
    await expectAlive(node);
  });

  it("answers malformed request lines and URLs 400 on every port, and Object's own names as unknown IPFS commands", async () => {
    for (const port of Object.values(node.ports)) {
      expect(await rawRequest(port, "GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), `port ${port}`).toMatch(/^HTTP\/1\.1 400 /);
      expect(await rawRequest(port, "POST /%%% HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"), `port ${port}`).toMatch(/^HTTP\/1\.1 [34]\d\d /);
      expect(await rawRequest(port, Buffer.from([0x00, 0x01, 0x02, 0x0d, 0x0a, 0x0d, 0x0a])), `port ${port}`).toMatch(/^HTTP\/1\.1 400 /);
      expect(await rawRequest(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n"), `port ${port}`).toMatch(/^HTTP\/1\.1 400 /);
    }
    for (const command of ["constructor", "__proto__", "toString"]) {
      expect((await fetch(`${node.urls.ipfs}/api/v0/${command}`, { method: "POST" })).status, command).toBe(404);
    }
    expect((await fetch(`${node.urls.query}/subgraphs/name/%E0%A4%A`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })).status).toBe(400);
    await expectAlive(node);
  });

  it("fails a deployment whose handler loops forever, within the documented bound, while the other keeps indexing", async () => {
    await deployWithGraphCli(runawayBuild, RUNAWAY, node.urls);
    await waitForHead(node.urls.status, RUNAWAY, fx.chain.url);
    const stuckBlock = await approve(7n);
    const minedAt = Date.now();
    // More approvals while the handler spins: the healthy deployment indexes them.
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 5, seed: 3 });
    const failed = await waitForStatus(node.urls.status, RUNAWAY, (s) => s.health === "failed", 60_000);
    // Bound: the head poll (100 ms), the 3 s timeout, the guard's tick; slack for a loaded machine.
    expect(Date.now() - minedAt).toBeLessThan(3000 + 10_000);
    expect(failed.fatalError?.message).toMatch(new RegExp(`^Handler 'ApprovalHandler' hit the timeout of '3' seconds.* at block #${stuckBlock} \\([0-9a-f]{64}\\)$`));
    expect(Number(failed.fatalError?.block?.number)).toBe(stuckBlock);
    // Queries of the failed deployment still answer (its data before the failure).
    const allowed = await graphql<{ approvalQueries: unknown[] }>(`${node.urls.query}/subgraphs/name/${RUNAWAY}`, "{ approvalQueries(first: 1000, subgraphError: allow) { id } }");
    expect(allowed.data?.approvalQueries.length).toBeGreaterThan(0);
    await expectAlive(node);
  });

  it("fails a deployment whose handler allocates without end at the memory limit, while the other keeps indexing", async () => {
    await deployWithGraphCli(hogBuild, HOG, node.urls);
    await waitForHead(node.urls.status, HOG, fx.chain.url);
    const hogBlock = await approve(8n);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 5, seed: 4 });
    const failed = await waitForStatus(node.urls.status, HOG, (s) => s.health === "failed", 60_000);
    // Without the cap the module grows its memory to about 2 GB and fails with a bare `unreachable` trap.
    expect(failed.fatalError?.message).toMatch(
      new RegExp(`^out of memory: the mapping's memory reached \\d+ MB of its 64 MB limit \\(LOCAL_NODE_MAPPING_MAX_MEMORY_MB\\); transaction [0-9a-f]{64}: wasm trap: unreachable in handler \`ApprovalHandler\` at block #${hogBlock} \\([0-9a-f]{64}\\)$`),
    );
    expect(Number(failed.fatalError?.block?.number)).toBe(hogBlock);
    // The failed deployment keeps what it indexed before the failing block, and nothing of that block.
    const allowed = await graphql<{ all: unknown[]; eights: unknown[] }>(
      `${node.urls.query}/subgraphs/name/${HOG}`,
      "{ all: approvalQueries(first: 1000, subgraphError: allow) { id } eights: approvalQueries(where: {value: 8}, subgraphError: allow) { id } }",
    );
    expect(allowed.data?.all.length).toBeGreaterThan(0);
    expect(allowed.data?.eights).toEqual([]);
    await expectAlive(node);
  });
});

describe("a handler stuck without a timeout", () => {
  let node: RunningNode;

  beforeAll(async () => {
    // Ten minutes: the handler stays stuck for the whole of this block.
    node = await startNodeProcess({ GRAPH_MAPPING_HANDLER_TIMEOUT: "600" });
    await deployWithGraphCli(healthyBuild, HEALTHY, node.urls);
    await deployWithGraphCli(runawayBuild, RUNAWAY, node.urls);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("keeps the other deployment indexing, and pauses the stuck one at once", async () => {
    // The chain already holds the approval of 7 (from the first block of tests, or sent here).
    const sevens = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).filter((a) => a.value === "7");
    if (sevens.length === 0) await approve(7n);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 5, seed: 5 });
    await expectAlive(node);
    // The runaway one must hang on the 7 before the pause (pausing it while it still indexes the blocks
    // before would end it gracefully instead). It loads its host thread as it starts (the node keeps no
    // spare loaded for a second deployment): once it has started indexing, its one run of a few dozen
    // events reaches the 7 within milliseconds; a second of slack for a loaded machine.
    await waitForHead(node.urls.status, HEALTHY, fx.chain.url);
    const runawayId = (await statusOf(node.urls.status, RUNAWAY))!.subgraph;
    await vi.waitFor(() => expect(node.proc.output()).toContain(`${runawayId}: indexing from block`), { timeout: 60_000, interval: 100 });
    await new Promise((r) => setTimeout(r, 1000));
    const stuck = await statusOf(node.urls.status, RUNAWAY);
    expect(stuck?.health).toBe("healthy");
    expect(Number(stuck?.chains[0]?.latestBlock?.number ?? -1)).toBeLessThan(await blockNumber(fx.chain.url));

    const started = Date.now();
    const paused = await fetch(node.urls.admin, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", method: "subgraph_pause", params: { deployment: stuck!.subgraph }, id: 1 }) });
    expect(await paused.json()).toEqual({ jsonrpc: "2.0", result: null, id: 1 });
    // The stop's grace (1 s) and the watchdog's tick: the stuck thread is ended, not waited for.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(node.proc.output()).toMatch(/stopping: ending the host worker/);
    await expectAlive(node);
  });

  it("shuts down on SIGINT while a handler is stuck", async () => {
    const resumed = await fetch(node.urls.admin, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", method: "subgraph_resume", params: { deployment: (await statusOf(node.urls.status, RUNAWAY))!.subgraph }, id: 1 }) });
    expect(await resumed.json()).toEqual({ jsonrpc: "2.0", result: null, id: 1 });
    // Give it time to reach the approval of 7 and spin again.
    await new Promise((r) => setTimeout(r, 3000));
    const started = Date.now();
    await node.proc.kill("SIGINT");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(node.proc.ended()).toBe("exit code 0");
  });
});
