// Shared pieces of the end-to-end tests: a real Hardhat chain with the token behind its proxy, a
// real graph-cli build and deploy, a local node (in process or as a child process), and the
// GraphQL/status reads the tests assert on. On Postgres, each node gets a fresh database on the test
// server (DATABASE_URL, from the vitest global setup), so suites never share schemas.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../lib/freePort.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import type { DeployedApprovalToken } from "../../../../../hardhat/deploy/deployToken.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import type { GraphCliRunner } from "../../lib/graphCli.js";
import { deploySubgraph } from "../../deploy/index.js";
import { createThrowawayDatabase } from "../store/index.js";
import { createLocalNode, type LocalNode, type LocalNodePorts } from "../index.js";
import { blockNumber, type ExpectedApproval } from "./chainFixture.js";

export { APPROVAL_TOPIC, startChainWithToken, chainApprovals, rpc, blockNumber, type ChainFixture, type ExpectedApproval } from "./chainFixture.js";




/** Builds our subgraph (or a fixture project) for the token with the unmodified graph-cli. */
export function buildFor(token: DeployedApprovalToken, projectDir?: string): Promise<BuiltSubgraph> {
  return buildSubgraph({ address: token.proxy, startBlock: token.startBlock, network: "localhost", ...(projectDir ? { projectDir } : {}) });
}

export type Backend = "pglite" | "postgres";

/** Every suite runs on both: the vitest global setup always provides a Postgres server. */
export function backends(): Backend[] {
  return ["pglite", "postgres"];
}

/** A fresh database on the test Postgres server (dropped by the returned cleanup). */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const db = await createThrowawayDatabase();
  return { url: db.options.databaseUrl ?? "", drop: () => db.cleanup() };
}

export async function freePorts(): Promise<LocalNodePorts> {
  return { query: await freePort(), admin: await freePort(), ipfs: await freePort(), status: await freePort() };
}

export interface NodeFixture {
  node: LocalNode;
  dataDir: string;
  databaseUrl: string | undefined;
  logs: string[];
  /** Closes the node and removes its data. */
  stop(): Promise<void>;
}

export async function startNode(rpcUrl: string, backend: Backend = "pglite"): Promise<NodeFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), "local-node-"));
  const db = backend === "postgres" ? await freshDatabase() : undefined;
  const logs: string[] = [];
  const node = await createLocalNode({
    ethereumRpc: rpcUrl,
    dataDir,
    ...(db ? { databaseUrl: db.url } : {}),
    ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
    log: (line) => logs.push(line),
    pollIntervalMs: 100,
  });
  return {
    node,
    dataDir,
    databaseUrl: db?.url,
    logs,
    async stop() {
      await node.close();
      await db?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** `graph create` + `graph deploy --version-label` with the unmodified graph-cli; returns the deployment id. */
export async function deployWithGraphCli(
  built: BuiltSubgraph,
  name: string,
  urls: { admin: string; ipfs: string },
  options: { versionLabel?: string; network?: string; runner?: GraphCliRunner } = {},
): Promise<string> {
  // A build already uploaded (built with `ipfs`) is deployed by its hash, without compiling again.
  const out = await deploySubgraph({
    name,
    versionLabel: options.versionLabel ?? "v1",
    deployUrl: urls.admin,
    ipfsUrl: urls.ipfs,
    network: options.network ?? "localhost",
    networkFile: "networks.json",
    cwd: built.workDir,
    ...(built.ipfsHash ? { ipfsHash: built.ipfsHash } : {}),
    ...(options.runner ? { graphCliRunner: options.runner } : {}),
  });
  if (!out.deploymentId) throw new Error(`graph deploy printed no deployment id:\n${out.output}`);
  return out.deploymentId;
}

export async function graphql<T = Record<string, unknown>>(url: string, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: T; errors?: { message: string }[] }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { data?: T; errors?: { message: string }[] };
}

export interface StatusInfo {
  subgraph: string;
  synced: boolean;
  health: string;
  fatalError: { message: string; handler: string | null; block: { number: string; hash: string } | null } | null;
  chains: { chainHeadBlock: { number: string } | null; latestBlock: { number: string; hash: string } | null }[];
  entityCount: string;
}

export async function statusOf(statusUrl: string, name: string): Promise<StatusInfo | null> {
  const r = await graphql<{ indexingStatusForCurrentVersion: StatusInfo | null }>(
    `${statusUrl}/graphql`,
    `query($n: String!) { indexingStatusForCurrentVersion(subgraphName: $n) { subgraph synced health entityCount
       fatalError { message handler block { number hash } } chains { chainHeadBlock { number } latestBlock { number hash } } } }`,
    { n: name },
  );
  if (r.errors) throw new Error(`status query failed: ${r.errors.map((e) => e.message).join("; ")}`);
  return r.data?.indexingStatusForCurrentVersion ?? null;
}

/** Polls the status until `done` holds (or the deadline passes, then throws with the last status). */
export async function waitForStatus(statusUrl: string, name: string, done: (s: StatusInfo) => boolean, timeoutMs = 60_000): Promise<StatusInfo> {
  const deadline = Date.now() + timeoutMs;
  let last: StatusInfo | null = null;
  for (;;) {
    last = await statusOf(statusUrl, name).catch(() => null);
    if (last && done(last)) return last;
    if (Date.now() > deadline) throw new Error(`status never reached the expected state; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the deployment has indexed the chain's current head. */
export async function waitForHead(statusUrl: string, name: string, rpcUrl: string, timeoutMs = 60_000): Promise<StatusInfo> {
  const head = await blockNumber(rpcUrl);
  return waitForStatus(statusUrl, name, (s) => s.health === "failed" || Number(s.chains[0]?.latestBlock?.number ?? -1) >= head, timeoutMs);
}

/** Every ApprovalQuery, paging with `first: 1000` and `skip`, in the default order (id ascending). */
export async function queryAllApprovals(queryUrl: string, extra = ""): Promise<ExpectedApproval[]> {
  const out: ExpectedApproval[] = [];
  for (let skip = 0; ; skip += 1000) {
    const r = await graphql<{ approvalQueries: ExpectedApproval[] }>(queryUrl, `{ approvalQueries(first: 1000, skip: ${skip}${extra}) { id owner spender value } }`);
    if (r.errors) throw new Error(`query failed: ${JSON.stringify(r.errors)}`);
    const page = r.data!.approvalQueries;
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

/** graph-node's default order: id ascending, bytewise. */
export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface NodeProcess {
  child: ChildProcess;
  output(): string;
  /** How the process ended ("exit code 1", "signal SIGSEGV"), or null while it runs. */
  ended(): string | null;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** the node command (`commands/node.ts`) as a child process (for SIGKILL tests); resolves once it listens. */
/** E2E_NODE_DEBUG=1 starts the node with debug logs (they land in `output()`). */
export async function spawnNodeProcess(env: { rpcUrl: string; dataDir: string; databaseUrl?: string | undefined; ports: LocalNodePorts; eventsPerRun?: number }): Promise<NodeProcess> {
  // Node itself with tsx's loader (not the tsx CLI, which would put a second process in between and
  // keep the node alive after a SIGKILL of the wrapper).
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(projectRoot, "packages", "workbench", "src", "commands", "node.ts"), "--query-port", String(env.ports.query), "--admin-port", String(env.ports.admin), "--ipfs-port", String(env.ports.ipfs), "--status-port", String(env.ports.status), "--data-dir", env.dataDir, "--ethereum-rpc", env.rpcUrl, ...(process.env.E2E_NODE_DEBUG ? ["--debug"] : []), ...(env.eventsPerRun ? ["--events-per-run", String(env.eventsPerRun)] : [])],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: env.databaseUrl ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const deadline = Date.now() + 60_000;
  while (!/queries http/.test(output)) {
    if (child.exitCode !== null) throw new Error(`local node exited:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`local node did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const ended = (): string | null => (child.signalCode ? `signal ${child.signalCode}` : child.exitCode !== null ? `exit code ${child.exitCode}` : null);
  return {
    child,
    output: () => output,
    ended,
    async kill(signal) {
      if (ended() === null) child.kill(signal);
      await exited;
    },
  };
}

/** A data dir (and, on Postgres, a fresh database) for node processes that a test kills and restarts. */
export interface ProcessRun {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Starts a node process on this run's data; it is SIGKILLed by cleanup() if still running. */
  start(options: { rpcUrl: string; ports: LocalNodePorts; eventsPerRun?: number }): Promise<NodeProcess>;
  cleanup(): Promise<void>;
}

export async function prepareProcessRun(backend: Backend, prefix: string): Promise<ProcessRun> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const db = backend === "postgres" ? await freshDatabase() : undefined;
  const procs: NodeProcess[] = [];
  return {
    dataDir,
    databaseUrl: db?.url,
    async start(options) {
      const proc = await spawnNodeProcess({ ...options, dataDir, databaseUrl: db?.url });
      procs.push(proc);
      return proc;
    },
    async cleanup() {
      for (const p of procs.splice(0)) await p.kill("SIGKILL");
      await db?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

