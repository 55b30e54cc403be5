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
import { cpuSecondsOfAll, waitForQuiet } from "../../lib/processCpu.js";
import { PROCESS_SETTINGS, PROCESS_SETTINGS_OFF_VARIABLE, parseSettingsOff, type ProcessSetting } from "../../lib/processSettingsOff.js";
import { blockNumber, buildFor, deployWithGraphCli, startChainWithToken, waitForHead } from "./harness.js";

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
  /** The counted processes' user and system time, from the node's start until it was quiet after the sync. */
  cpuSeconds: number;
  approvalsPerSecond: number;
}

export async function runNodeMemoryBench(options: NodeMemoryBenchOptions): Promise<NodeMemoryFigure> {
  const chain = await prepareApprovalsChain(options);
  try {
    return await measureNode(chain, options);
  } finally {
    await chain.stop();
  }
}

/** A Hardhat chain with the approvals sent and the subgraph built for it: what every measured node indexes. */
export interface ApprovalsChain {
  approvals: number;
  rpcUrl: string;
  head: number;
  built: Awaited<ReturnType<typeof buildFor>>;
  stop(): Promise<void>;
}

export async function prepareApprovalsChain(options: { approvals: number; log(line: string): void }): Promise<ApprovalsChain> {
  const { log } = options;
  log("starting Hardhat and deploying the token behind its proxy");
  const fx = await startChainWithToken();
  try {
    log(`sending ${options.approvals} approvals (approveMany batches of 500)`);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: options.approvals, batchSize: 500, seed: 1 });
    const head = await blockNumber(fx.chain.url);
    log("building the subgraph with graph-cli");
    const built = await buildFor(fx.token);
    return { approvals: options.approvals, rpcUrl: fx.chain.url, head, built, stop: () => fx.stop() };
  } catch (err) {
    await fx.stop();
    throw err;
  }
}

/** One node, on its own fresh data folder, from its start until it is quiet after it indexed the chain. */
export async function measureNode(chain: ApprovalsChain, options: Omit<NodeMemoryBenchOptions, "approvals">): Promise<NodeMemoryFigure> {
  const { log } = options;
  const dataDir = await mkdtemp(join(tmpdir(), "node-memory-"));
  try {
    // Ports the node picks itself (0) and prints: a port found free here and then bound by the node could
    // be taken in between by another program on a shared machine.
    const args = ["--query-port", "0", "--admin-port", "0", "--ipfs-port", "0", "--status-port", "0", "--data-dir", dataDir, "--ethereum-rpc", chain.rpcUrl];
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
      const urls = nodeUrls(output);
      await deployWithGraphCli(chain.built, "bench/approvals", urls);
      const status = await waitForHead(urls.status, "bench/approvals", chain.rpcUrl, 600_000);
      if (status.health !== "healthy" || Number(status.chains[0]?.latestBlock?.number) < chain.head) throw new Error(`indexing did not finish: ${JSON.stringify(status)}`);
      // The approvals and the proof-of-indexing entity (graph-node counts it too).
      if (Number(status.entityCount) !== chain.approvals + 1) throw new Error(`expected ${chain.approvals} entities and the proof of indexing, the status counts ${status.entityCount}`);
      const settled = await waitForQuiet(child.pid!, (p) => !isLauncher(p));
      const { peakSumKiB, processes } = sampler.stop();
      const cpuSeconds = cpuSecondsOfAll(processes.filter((p) => !isLauncher(p)));
      const indexingSeconds = secondsBetween(output, /deployed bench\/approvals/, /synced at block/);
      return {
        approvals: chain.approvals,
        launch: options.launch,
        peakTreeMiB: peakSumKiB / 1024,
        processes: processes.sort((a, b) => b.peakKiB - a.peakKiB).map((p) => ({ command: p.command, peakMiB: p.peakKiB / 1024, launcher: isLauncher(p) })),
        indexingSeconds,
        settleSeconds: settled.busySeconds,
        cpuSeconds,
        approvalsPerSecond: chain.approvals / indexingSeconds,
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
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A way to run the node for the variants table: the process settings it turns off. */
export interface SettingsVariant {
  name: string;
  off: ProcessSetting[] | "all";
}

/**
 * Every setting on (as a user runs it), each one alone off (those `list` names, or every one for `all`),
 * then none; and for each group in `only` (settings joined by commas, groups by semicolons), that group
 * alone on.
 */
export function settingsVariants(list = "all", only = ""): SettingsVariant[] {
  const alone = list === "all" || list === "" ? PROCESS_SETTINGS : [...parseSettingsOff(list)];
  const groups = only
    .split(";")
    .filter((g) => g.trim())
    .map((g) => [...parseSettingsOff(g)]);
  return [
    { name: "all on", off: [] },
    ...alone.map((s) => ({ name: `without ${s}`, off: [s] })),
    { name: "none", off: "all" },
    ...groups.map((g) => ({ name: `only ${g.join(", ")}`, off: PROCESS_SETTINGS.filter((s) => !g.includes(s)) })),
  ];
}

export interface VariantRow {
  variant: string;
  rounds: NodeMemoryFigure[];
}

/**
 * The variants one after the other on one chain, `rounds` times (each round in the same order, so a
 * drift of the shared machine's speed spreads over all of them rather than over one).
 */
export async function runSettingsVariants(options: { approvals: number; rounds: number; variants: SettingsVariant[]; log(line: string): void }): Promise<VariantRow[]> {
  const chain = await prepareApprovalsChain(options);
  const rows: VariantRow[] = options.variants.map((v) => ({ variant: v.name, rounds: [] }));
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const [i, v] of options.variants.entries()) {
        options.log(`round ${round}/${options.rounds}: ${v.name}`);
        const env = { [PROCESS_SETTINGS_OFF_VARIABLE]: v.off === "all" ? "all" : v.off.join(",") };
        const figure = await measureNode(chain, { launch: "npm", env, log: options.log });
        options.log(`  peak ${figure.peakTreeMiB.toFixed(0)} MiB, indexing ${figure.indexingSeconds.toFixed(2)} s, CPU ${figure.cpuSeconds.toFixed(1)} s`);
        rows[i]!.rounds.push(figure);
      }
    }
    return rows;
  } finally {
    await chain.stop();
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function formatVariantTable(rows: VariantRow[]): string {
  const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(", ");
  const base = median(rows[0]!.rounds.map((f) => f.peakTreeMiB));
  return [
    "| Variant | Peak RSS (MiB), median | vs all on | Rounds (MiB) | Indexing (s), median | Rounds (s) | CPU (s), median | Rounds (s) |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => {
      const peaks = r.rounds.map((f) => f.peakTreeMiB);
      const indexing = r.rounds.map((f) => f.indexingSeconds);
      const cpu = r.rounds.map((f) => f.cpuSeconds);
      const delta = median(peaks) - base;
      return `| ${r.variant} | ${median(peaks).toFixed(0)} | ${delta >= 0 ? "+" : ""}${delta.toFixed(0)} | ${list(peaks, 0)} | ${median(indexing).toFixed(2)} | ${list(indexing, 2)} | ${median(cpu).toFixed(1)} | ${list(cpu, 1)} |`;
    }),
    "",
    "Peak RSS: the node's process tree, sampled every 50 ms (npm and its shell left out). Indexing: the node's log from deployed to synced; CPU: the tree's user and system time from its start until it was quiet after the sync. Times vary with the shared machine's load.",
  ].join("\n");
}

/** The admin, IPFS and status URLs the node's start-up line names. */
function nodeUrls(output: string): { admin: string; ipfs: string; status: string } {
  const url = (name: string) => new RegExp(`\\b${name} (http://127\\.0\\.0\\.1:\\d+)`).exec(output)?.[1];
  const [admin, ipfs, status] = [url("admin"), url("ipfs"), url("status")];
  if (!admin || !ipfs || !status) throw new Error(`the node's start-up line lacks its URLs:\n${output.slice(-2000)}`);
  return { admin, ipfs, status };
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
    `${f.approvals} approvals, launched with ${f.launch}: peak ${f.peakTreeMiB.toFixed(0)} MiB for the node's processes together; indexing ${f.indexingSeconds.toFixed(2)} s = ${Math.round(f.approvalsPerSecond)} approvals/s; busy ${f.settleSeconds.toFixed(1)} s more after it synced (sampled until quiet); ${f.cpuSeconds.toFixed(1)} CPU seconds`,
    "each process's own peak (VmHWM):",
    ...rows,
  ].join("\n");
}
