// `npm run bench:node-memory`: peak resident memory of the local node as a user runs it (every process
// `npm run local-node` starts: tsx, the node, esbuild, a child reaper; npm itself is listed but not
// counted), while it indexes N approvals from a local Hardhat chain through graph-cli's deploy, with the
// node's own indexing rate from its log ("deployed" to "synced"), sampled until the node is quiet after
// it synced. The chain, graph-cli and this process are apart from the tree measured.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { sampleProcessTree, type ProcessMemory } from "../../lib/processTreeMemory.js";
import { waitForQuiet } from "../../lib/processCpu.js";
import { blockNumber, buildFor, deployWithGraphCli, freePorts, startChainWithToken, waitForHead } from "./harness.js";

/** How the node is started: as `npm run local-node` does, or node with tsx's loader and no wrappers. */
export type NodeLaunch = "npm" | "node";

export interface NodeMemoryBenchOptions {
  approvals: number;
  launch: NodeLaunch;
  /** Extra environment for the node (e.g. a memory setting to compare). */
  env?: Record<string, string>;
  log(line: string): void;
}

export interface NodeMemoryFigure {
  approvals: number;
  launch: NodeLaunch;
  /** The highest sum of the tree's resident memory at one sample (every 50 ms), npm and its shell left out, MiB. */
  peakTreeMiB: number;
  /** Each process's own peak (VmHWM), largest first; `launcher` for npm and its shell (not counted). */
  processes: { command: string; peakMiB: number; launcher: boolean }[];
  /** The node's log from "deployed" to "synced at block": the indexing itself. */
  indexingSeconds: number;
  /** How long the node stayed busy after it synced (attribute indexes, the proof of indexing's hashing); sampled throughout. */
  settleSeconds: number;
  approvalsPerSecond: number;
}

export async function runNodeMemoryBench(options: NodeMemoryBenchOptions): Promise<NodeMemoryFigure> {
  const { log } = options;
  log("starting Hardhat and deploying the token behind its proxy");
  const fx = await startChainWithToken();
  const dataDir = await mkdtemp(join(tmpdir(), "node-memory-"));
  try {
    log(`sending ${options.approvals} approvals (approveMany batches of 500)`);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: options.approvals, batchSize: 500, seed: 1 });
    const head = await blockNumber(fx.chain.url);
    log("building the subgraph with graph-cli");
    const built = await buildFor(fx.token);
    const ports = await freePorts();
    const args = ["--query-port", String(ports.query), "--admin-port", String(ports.admin), "--ipfs-port", String(ports.ipfs), "--status-port", String(ports.status), "--data-dir", dataDir, "--ethereum-rpc", fx.chain.url];
    const [command, argv] = options.launch === "npm" ? ["npm", ["run", "--silent", "local-node", "--", ...args]] : [process.execPath, ["--import", "tsx", join(projectRoot, "packages", "workbench", "src", "commands", "node.ts"), ...args]];
    // Its own process group, so that one signal ends the whole tree it starts.
    const child = spawn(command, argv, { cwd: projectRoot, env: { ...process.env, DATABASE_URL: "", ...options.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const sampler = sampleProcessTree(child.pid!, { counted: (p) => !isLauncher(p) });
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    try {
      const deadline = Date.now() + 120_000;
      while (!/queries http/.test(output)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`local node did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      log("node up; deploying with graph-cli");
      const urls = { admin: `http://127.0.0.1:${ports.admin}`, ipfs: `http://127.0.0.1:${ports.ipfs}` };
      await deployWithGraphCli(built, "bench/approvals", urls);
      const status = await waitForHead(`http://127.0.0.1:${ports.status}`, "bench/approvals", fx.chain.url, 600_000);
      if (status.health !== "healthy" || Number(status.chains[0]?.latestBlock?.number) < head) throw new Error(`indexing did not finish: ${JSON.stringify(status)}`);
      // The approvals and the proof-of-indexing entity (graph-node counts it too).
      if (Number(status.entityCount) !== options.approvals + 1) throw new Error(`expected ${options.approvals} entities and the proof of indexing, the status counts ${status.entityCount}`);
      const settled = await waitForQuiet(child.pid!, (p) => !isLauncher(p));
      const { peakSumKiB, processes } = sampler.stop();
      const indexingSeconds = secondsBetween(output, /deployed bench\/approvals/, /synced at block/);
      return {
        approvals: options.approvals,
        launch: options.launch,
        peakTreeMiB: peakSumKiB / 1024,
        processes: processes.sort((a, b) => b.peakKiB - a.peakKiB).map((p) => ({ command: p.command, peakMiB: p.peakKiB / 1024, launcher: isLauncher(p) })),
        indexingSeconds,
        settleSeconds: settled.busySeconds,
        approvalsPerSecond: options.approvals / indexingSeconds,
      };
    } finally {
      sampler.stop();
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // Already gone.
      }
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
      // npm leaves before the node under it has finished its shutdown: the data folder goes once the
      // whole group has.
      await groupGone(child.pid!, 10_000);
    }
  } finally {
    await fx.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Waits for every process of a group to end, then kills what is left after `graceMs`. */
async function groupGone(groupId: number, graceMs: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-groupId, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + graceMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive()) process.kill(-groupId, "SIGKILL");
}

/** npm, and the shell it runs a script in: the user's launcher, not part of the node. */
export function isLauncher(p: ProcessMemory): boolean {
  return /^(npm|sh) /.test(p.command);
}

/** Seconds between the node's first log line matching `from` and the next matching `to` (ISO timestamps lead each line). */
export function secondsBetween(output: string, from: RegExp, to: RegExp): number {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => from.test(l));
  const end = lines.findIndex((l, i) => i > start && to.test(l));
  if (start < 0 || end < 0) throw new Error(`the node's log lacks the lines the timing needs:\n${output.slice(-2000)}`);
  return (Date.parse(lines[end]!.slice(0, 24)) - Date.parse(lines[start]!.slice(0, 24))) / 1000;
}

export function formatNodeMemory(f: NodeMemoryFigure): string {
  const rows = f.processes.map((p) => `  ${p.peakMiB.toFixed(0).padStart(6)} MiB  ${p.launcher ? "(launcher, not counted) " : ""}${p.command}`);
  return [
    `${f.approvals} approvals, launched with ${f.launch}: peak ${f.peakTreeMiB.toFixed(0)} MiB for the node's processes together; indexing ${f.indexingSeconds.toFixed(2)} s = ${Math.round(f.approvalsPerSecond)} approvals/s; busy ${f.settleSeconds.toFixed(1)} s more after it synced (sampled until quiet)`,
    "each process's own peak (VmHWM):",
    ...rows,
  ].join("\n");
}
