// A real subgraph as a benchmark: one chain and one build (prepareRun.ts), then each engine alone, one
// after the other, from nothing to synced at the head, timed; each engine's entities checked against the
// chain before the next starts. The local node runs with its own defaults, in this process, on PGlite in a
// scratch folder (as `npm run local-node` does); graph-node is `gnd dev` on an embedded PostgreSQL.
//
// The indexing window of each: ours from the node's "deployed" log line to its "synced at block" line;
// graph-node's from its deployment named (after `gnd dev` is up) to the status saying synced at the head.
// gnd dev starts indexing as it starts, before the name, so its window leaves part of its indexing out:
// the ratio errs in graph-node's favour.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { deploySubgraph } from "subgraph-workbench/deploy";
import { formatProfileTable } from "subgraph-workbench/lib/handlerProfileTable";
import { createIpfsServer, createIpfsStore, createLocalNode, type LocalNode } from "subgraph-workbench/local-node";
import { readStatus, startGraphNodeOracle, type ComparedStatus, type Engine } from "subgraph-workbench/parity";
import { createCheckList, type Check } from "./checks.js";
import { checkedEntityReader } from "./entityReader.js";
import { prepareRealSubgraph, type PrepareOptions, type PreparedRun } from "./prepareRun.js";
import type { RealSubgraph } from "./types.js";

export type BenchEngine = "local" | "graph-node";

export interface BenchEngineFigure {
  engine: BenchEngine;
  /** The engine started (its store and servers), the build deployed, the chain indexed: to synced. */
  startToSyncedSeconds: number;
  /** The indexing window (see the file's comment). */
  indexingSeconds: number;
  eventsPerSecond: number;
  blocksPerSecond: number;
  status: ComparedStatus | { error: string };
  checks: Check[];
  /** Ours: the handler profile of the catch-up (the node's `--profile` table). */
  profile?: string;
}

export interface RealSubgraphBench {
  subgraph: string;
  commit: string | null;
  /** What the scenario put on the chain. */
  summary: string;
  scenarioSeconds: number;
  startBlock: number;
  head: number;
  /** Events the subgraph's handlers take, counted on the chain. */
  events: number;
  engines: BenchEngineFigure[];
  /** Our indexing rate over graph-node's, with both engines. */
  ratio: number | null;
  /** The issue's target for the ratio. */
  target: number;
}

export interface BenchOptions extends PrepareOptions {
  /** In this order, one after the other. */
  engines: BenchEngine[];
  /** How long one engine may take to sync. */
  timeoutMs: number;
  target: number;
}

const NAME_PREFIX = "bench";

export async function benchRealSubgraph(subgraph: RealSubgraph, options: BenchOptions): Promise<RealSubgraphBench> {
  const log = (line: string) => options.log?.(`[${subgraph.name}] ${line}`);
  const run = await prepareRealSubgraph(subgraph, options);
  try {
    const head = Number(await createJsonRpcClient({ url: run.chain.url }).request<string>("eth_blockNumber"));
    const events = (await run.scenario.handledEvents?.()) ?? 0;
    const blocks = head - run.scenario.startBlock + 1;
    log(`chain ready: ${events} events for the handlers in blocks ${run.scenario.startBlock} to ${head}`);
    const figures: BenchEngineFigure[] = [];
    for (const engine of options.engines) {
      const timed = engine === "local" ? await benchLocal(run, subgraph, options, log) : await benchGraphNode(run, subgraph, options, log);
      const figure: BenchEngineFigure = { ...timed, engine, eventsPerSecond: events / timed.indexingSeconds, blocksPerSecond: blocks / timed.indexingSeconds };
      log(`${engine}: synced in ${timed.indexingSeconds.toFixed(2)} s of indexing (${figure.eventsPerSecond.toFixed(0)} events/s), ${timed.startToSyncedSeconds.toFixed(2)} s from its start; ${timed.checks.filter((c) => c.ok).length}/${timed.checks.length} checks passed`);
      if (figure.profile) log(`${engine}: handler profile of the catch-up:\n${figure.profile}`);
      figures.push(figure);
    }
    const ours = figures.find((f) => f.engine === "local");
    const graphNode = figures.find((f) => f.engine === "graph-node");
    return {
      subgraph: subgraph.name,
      commit: run.checkout.commit,
      summary: run.scenario.summary ?? "the default scenario",
      scenarioSeconds: run.scenarioSeconds,
      startBlock: run.scenario.startBlock,
      head,
      events,
      engines: figures,
      ratio: ours && graphNode ? ours.eventsPerSecond / graphNode.eventsPerSecond : null,
      target: options.target,
    };
  } finally {
    await run.close();
  }
}

type Timed = Omit<BenchEngineFigure, "engine" | "eventsPerSecond" | "blocksPerSecond">;

async function benchLocal(run: PreparedRun, subgraph: RealSubgraph, options: BenchOptions, log: (line: string) => void): Promise<Timed> {
  const name = `${NAME_PREFIX}/${subgraph.name}`;
  const dataDir = await mkdtemp(join(tmpdir(), "bench-real-local-"));
  // The node's own log lines, timed as they come: the indexing window is theirs.
  const seen = new Map<string, number>();
  let node: LocalNode | undefined;
  try {
    const started = Date.now();
    node = await createLocalNode({
      ethereumRpc: run.chain.url,
      dataDir,
      ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
      log: (line) => {
        for (const [key, pattern] of [["deployed", new RegExp(`deployed ${name}`)], ["synced", /: synced at block/]] as const) if (pattern.test(line) && !seen.has(key)) seen.set(key, Date.now());
      },
    });
    const deployed = await deploySubgraph({ name, versionLabel: "bench", deployUrl: node.urls.admin, ipfsUrl: node.urls.ipfs, network: subgraph.network, networkFile: "networks.json", cwd: run.built.workDir, buildDir: relative(run.built.workDir, run.built.buildDir), ...(run.built.graphCliBin ? { graphCliBin: run.built.graphCliBin } : {}) });
    if (!deployed.deploymentId) throw new Error(`graph deploy to the local node printed no deployment id:\n${deployed.output}`);
    const engine: Engine = { label: "local", queryUrl: `${node.urls.query}/subgraphs/name/${name}`, statusUrl: `${node.urls.status}/graphql`, adminUrl: node.urls.admin, name, poiDigests: async () => [] };
    const status = await waitUntilSynced(engine, run.chain.url, options.timeoutMs);
    const synced = Date.now();
    const window = (seen.get("synced") ?? synced) - (seen.get("deployed") ?? started);
    const profile = node.indexer.profile(deployed.deploymentId);
    const checks = await checkEntities(run, engine);
    return { startToSyncedSeconds: (synced - started) / 1000, indexingSeconds: window / 1000, status, checks, ...(profile ? { profile: formatProfileTable(profile.handlers) } : {}) };
  } finally {
    await node?.close();
    await rm(dataDir, { recursive: true, force: true });
    log("local: stopped");
  }
}

async function benchGraphNode(run: PreparedRun, subgraph: RealSubgraph, options: BenchOptions, log: (line: string) => void): Promise<Timed> {
  const name = `${NAME_PREFIX}/${subgraph.name}`;
  // gnd dev reads the build's files itself; an IPFS server is there for what a mapping would fetch.
  const ipfs = await createIpfsServer({ ipfs: await createIpfsStore({}), port: 0 });
  try {
    const started = Date.now();
    const engine = await startGraphNodeOracle(run.built, { chainUrl: run.chain.url, network: subgraph.network, name, ipfs: new URL(ipfs.url).host, log });
    try {
      const named = Date.now();
      const status = await waitUntilSynced(engine, run.chain.url, options.timeoutMs);
      const synced = Date.now();
      const checks = await checkEntities(run, engine);
      return { startToSyncedSeconds: (synced - started) / 1000, indexingSeconds: (synced - named) / 1000, status, checks };
    } finally {
      await engine.close();
      log("graph-node: stopped");
    }
  } finally {
    await ipfs.close();
  }
}

/** Polls the status every 100 ms until synced at the chain's head; a failed deployment ends the wait. */
async function waitUntilSynced(engine: Engine, chainUrl: string, timeoutMs: number): Promise<ComparedStatus | { error: string }> {
  const head = Number(await createJsonRpcClient({ url: chainUrl }).request<string>("eth_blockNumber"));
  const deadline = Date.now() + timeoutMs;
  let last: ComparedStatus | { error: string } = { error: "no status yet" };
  while (Date.now() < deadline) {
    last = await readStatus(engine).catch((error: unknown) => ({ error: String(error) }));
    if ("health" in last && (last.health === "failed" || last.paused || (last.synced && Number(last.latestBlock) >= head))) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${engine.label} did not sync to block ${head} within ${Math.round(timeoutMs / 1000)} s: ${JSON.stringify(last)}`);
}

async function checkEntities(run: PreparedRun, engine: Engine): Promise<Check[]> {
  const checks = createCheckList();
  await run.scenario.check({ chainUrl: run.chain.url, entities: checkedEntityReader(engine.queryUrl, run.schema, checks), checks });
  return checks.checks;
}

/** The bench as text: the workload, each engine's figures and checks, the ratio against the target. */
export function formatBenchReport(bench: RealSubgraphBench): string {
  const lines = [
    `${bench.subgraph} at ${bench.commit?.slice(0, 12) ?? "unknown commit"}: ${bench.summary}`,
    `  ${bench.events} events for the handlers in blocks ${bench.startBlock} to ${bench.head}; scenario ${bench.scenarioSeconds.toFixed(1)} s`,
    `  engine       indexing s   events/s   blocks/s   start to synced s   checks against the chain`,
  ];
  for (const f of bench.engines) {
    const passed = f.checks.filter((c) => c.ok).length;
    const health = "health" in f.status ? (f.status.health === "healthy" ? "" : `, ${f.status.health}${f.status.fatalError ? `: ${f.status.fatalError.message}` : ""}`) : `, ${f.status.error}`;
    lines.push(`  ${(f.engine === "local" ? "ours" : f.engine).padEnd(11)}${f.indexingSeconds.toFixed(2).padStart(11)}${f.eventsPerSecond.toFixed(0).padStart(11)}${f.blocksPerSecond.toFixed(1).padStart(11)}${f.startToSyncedSeconds.toFixed(2).padStart(20)}   ${passed}/${f.checks.length}${health}`);
    for (const c of f.checks.filter((c) => !c.ok).slice(0, 20)) lines.push(`    FAIL ${c.name}: ${c.detail ?? ""}`);
  }
  if (bench.ratio !== null) lines.push(`  indexing rate, ours / graph-node: ${bench.ratio.toFixed(1)}× (target ≥${bench.target}×: ${bench.ratio >= bench.target ? "met" : "NOT met"})`);
  const ours = bench.engines.find((f) => f.engine === "local");
  if (ours?.profile) lines.push("  our handler profile of the catch-up:", ...ours.profile.split("\n").map((l) => `    ${l}`));
  return lines.join("\n");
}

/** Every engine healthy and every check passed. */
export function benchPassed(bench: RealSubgraphBench): boolean {
  return bench.engines.every((f) => "health" in f.status && f.status.health === "healthy" && f.checks.length > 0 && f.checks.every((c) => c.ok));
}
