// One real subgraph, end to end: its source copied from the user's checkout into a scratch folder, a
// fresh Hardhat chain with the protocol and the scenario, the network config written and the manifest
// rendered, one graph-cli build, then the chosen engines synced at the head. Each engine's entities are
// checked against the chain; with both engines, the parity comparisons (status, every entity at the head
// and at past blocks, the query corpus) run too.
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import type { BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { createIpfsServer, createIpfsStore } from "subgraph-workbench/local-node";
import type { AcceptedDifference } from "subgraph-workbench/parity";
import { startGraphNodeOracle, startLocalEngine, type Engine, type EngineOptions, type RunningEngine } from "subgraph-workbench/parity";
import { compareEngines, sortDifferences } from "subgraph-workbench/parity";
import { readStatus, waitUntilSettled, type ComparedStatus } from "subgraph-workbench/parity";
import type { CaseReport } from "subgraph-workbench/parity";
import { createProgressBoard } from "subgraph-workbench/lib/catchUpProgress";
import { createCheckList, type Check } from "./checks.js";
import { checkedEntityReader } from "./entityReader.js";
import { prepareRealSubgraph, type PrepareOptions } from "./prepareRun.js";
import type { RealSubgraph, ScenarioScale } from "./types.js";

export type EngineChoice = "local" | "graph-node" | "both";

export interface RunRealSubgraphOptions extends PrepareOptions {
  engines: EngineChoice;
  /** The local node's store: a Postgres database (C collation); PGlite when absent. */
  databaseUrl?: string;
  accepted: AcceptedDifference[];
  /** Show the engines' catch-up and the query corpus as they go (bars on a terminal, lines elsewhere). */
  progress?: boolean;
}

export interface EngineReport {
  label: Engine["label"];
  status: ComparedStatus | { error: string };
  checks: Check[];
}

export interface RealSubgraphReport {
  subgraph: string;
  repository: string;
  /** The commit that was built, and the one the config and checks were written against. */
  commit: string | null;
  testedCommit: string;
  head: number;
  engines: EngineReport[];
  /** With both engines: the parity comparisons. */
  parity?: Pick<CaseReport, "comparisons" | "differences" | "accepted">;
  seconds: number;
}

export async function runRealSubgraph(subgraph: RealSubgraph, options: RunRealSubgraphOptions): Promise<RealSubgraphReport> {
  const started = Date.now();
  const log = (line: string) => options.log?.(`[${subgraph.name}] ${line}`);
  const run = await prepareRealSubgraph(subgraph, options);
  const { chain, checkout, scenario, built, schema } = run;
  try {
    const { engines, failed } = await startChosenEngines(built, options.engines, {
      chainUrl: chain.url,
      network: subgraph.network,
      name: `real/${subgraph.name}`,
      log,
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    });
    try {
      for (const f of failed) log(`${f.label}: ${f.error}`);
      const board = options.progress && engines.length ? createProgressBoard({ plainLine: log }) : null;
      const head = engines.length
        ? await waitUntilSettled(engines, chain.url, { timeoutMs: settleTimeoutMs(options.scale), startBlock: scenario.startBlock, ...(board ? { progress: board } : {}) }).finally(() => board?.stop())
        : Number(await createJsonRpcClient({ url: chain.url }).request<string>("eth_blockNumber"));
      log(`${engines.map((e) => e.label).join(" and ") || "no engine"} settled at block ${head}`);
      const reports: EngineReport[] = failed.map((f) => ({ label: f.label, status: { error: f.error }, checks: [] }));
      for (const engine of engines) {
        const checks = createCheckList();
        await scenario.check({ chainUrl: chain.url, entities: checkedEntityReader(engine.queryUrl, schema, checks), checks });
        reports.push({ label: engine.label, status: await readStatus(engine), checks: checks.checks });
      }
      reports.sort((a, b) => Number(a.label !== "local") - Number(b.label !== "local"));
      const report: RealSubgraphReport = { subgraph: subgraph.name, repository: subgraph.upstream.repository, commit: checkout.commit, testedCommit: subgraph.upstream.commit, head, engines: reports, seconds: 0 };
      const [local, graphNode] = engines;
      if (options.engines === "both" && local && graphNode) {
        const compared = await compareEngines({ caseName: subgraph.name, round: "first", local, graphNode, chainUrl: chain.url, schema, pastBlocks: scenario.pastBlocks, queries: [], log, startBlock: scenario.startBlock, ...(options.progress ? { progress: true } : {}) });
        report.parity = { comparisons: compared.comparisons, ...sortDifferences(compared.differences, options.accepted) };
      }
      return { ...report, seconds: (Date.now() - started) / 1000 };
    } finally {
      await Promise.all(engines.map((e) => e.close()));
    }
  } finally {
    await run.close();
  }
}

/** The default five minutes, and a minute more per thousand operations of a scaled scenario (graph-node is slow there). */
function settleTimeoutMs(scale: ScenarioScale | undefined): number {
  return 300_000 + (scale ? scale.trades * 60 : 0);
}

interface StartedEngines {
  engines: RunningEngine[];
  /** Engines that did not start or refused the deployment, with why. */
  failed: { label: Engine["label"]; error: string }[];
}

/**
 * The engines asked for, local first. An engine that refuses the deployment is reported, and the other
 * still runs. graph-node reads files from the local node's IPFS, as in the parity suite, or from an IPFS
 * server of its own when the local node is not running.
 */
async function startChosenEngines(built: BuiltSubgraph, choice: EngineChoice, options: EngineOptions): Promise<StartedEngines> {
  const started: StartedEngines = { engines: [], failed: [] };
  let ipfsHost: string | undefined;
  if (choice !== "graph-node") {
    try {
      const local = await startLocalEngine(built, options);
      started.engines.push(local);
      ipfsHost = new URL(local.ipfsUrl).host;
    } catch (error) {
      started.failed.push({ label: "local", error: shortError(error) });
    }
  }
  if (choice === "local") return started;
  const ipfsServer = ipfsHost ? undefined : await createIpfsServer({ ipfs: await createIpfsStore({}), port: 0 });
  try {
    const graphNode = await startGraphNodeOracle(built, { ...options, ipfs: ipfsHost ?? new URL(ipfsServer?.url ?? "").host });
    started.engines.push(ipfsServer ? { ...graphNode, close: async () => (await graphNode.close(), await ipfsServer.close()) } : graphNode);
  } catch (error) {
    await ipfsServer?.close();
    started.failed.push({ label: "graph-node", error: shortError(error) });
  }
  return started;
}

/** graph-cli's verdict line when it has one ("✖ Failed to deploy ...: subgraph validation error: ..."). */
function shortError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const verdict = text.split("\n").reverse().find((line) => /✖|Failed to deploy|error:/i.test(line));
  return (verdict ?? text).trim().slice(0, 1000);
}
