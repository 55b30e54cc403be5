// `npm run bench:indexing`: indexing throughput (approvals/s) from a local Hardhat chain holding N
// approvals, on PGlite and on Postgres, with peak memory; then query latency p50/p99 through the
// query server for `approvalQueries(first: 1000)` and a filter by owner.
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { createNodeStore, createThrowawayDatabase } from "../store/index.js";
import { createQueryServer } from "../query-server/index.js";
import { measureQueryLatency } from "../graphql/queryLatency.bench.js";
import { createRpcClient } from "../chain/rpcClient.js";
import { getHeadNumber } from "../chain/blocks.js";
import { createDeploymentIndexer } from "../indexer/deploymentIndexer.js";
import { createHostThreadPool } from "../indexer/hostWorkerClient.js";
import { startChainWithToken } from "./chainFixture.js";
import { buildApprovalDeployment } from "./deploymentFixture.js";
import { createHandlerProfile } from "../indexer/handlerProfile.js";
import { currentDeployment } from "../indexer/chainOrigin.js";
import { createNodeMetrics, timedRpc } from "../metrics/index.js";
import { measureProfileHooks } from "../indexer/profileHooks.bench.js";

export type BenchBackend = "pglite" | "postgres";

export interface IndexingBenchOptions {
  counts: number[];
  backends: BenchBackend[];
  /** Server for the Postgres runs (a throwaway database is created on it per run); required when backends has postgres. */
  databaseUrl?: string;
  /** Query rounds per kind for the latency figures. */
  queryRounds?: number;
  /** Measure query latency (through the HTTP query server) at these approval counts (default: the largest). */
  queryAt?: number[];
  /** Keep the proof of indexing as the node does by default (true), or measure without it. */
  proofOfIndexing?: boolean;
  /** The manifest's specVersion as the node sees it: from 0.0.6 the proof uses graph-node's fast hasher (default 0.0.5, the project's). */
  specVersion?: string;
  /**
   * Measure what the handler profile and the metrics cost: each count and backend is indexed this many
   * times with them (profile kept, RPC timed, /metrics scraped every second) and as many without
   * (no profile, no timing), alternately. Default 0: as the node runs (with the profile, no metrics).
   */
  overheadPairs?: number;
  log(line: string): void;
}

export interface IndexingFigure {
  backend: BenchBackend;
  approvals: number;
  /** From start() to the head committed: the mapping's instantiation on the node's loaded host thread, then indexing. */
  seconds: number;
  approvalsPerSecond: number;
  /** From the first log range request to the head committed: the indexing itself. */
  indexingSeconds: number;
  indexingApprovalsPerSecond: number;
  /** RSS just before indexing started (store open, deployment created), MiB. */
  baselineRssMiB: number;
  /** Highest RSS sampled while indexing (MiB), and the process's maxRSS so far. */
  peakRssMiB: number;
  maxRssMiB: number;
  query?: { firstMs: { p50: number; p99: number }; ownerMs: { p50: number; p99: number } };
  /** In an overhead run: with the profile and metrics (true) or without (false). */
  instrumented?: boolean;
  /** The process's CPU time (all its threads, user and system) from start() to the head, µs per approval: less swayed than the rate by other load on the machine. */
  cpuMicrosPerApproval: number;
}

export async function runIndexingBench(options: IndexingBenchOptions): Promise<IndexingFigure[]> {
  const { log } = options;
  const figures: IndexingFigure[] = [];
  log("starting Hardhat and deploying the token behind its proxy");
  const fx = await startChainWithToken();
  try {
    log("building the subgraph with graph-cli");
    const deployment = await buildApprovalDeployment(fx.token);
    const rpc = createRpcClient({ url: fx.chain.url });
    let sent = 0;
    for (const count of [...options.counts].sort((a, b) => a - b)) {
      if (count > sent) {
        log(`sending ${count - sent} approvals (approveMany batches of 500)`);
        await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: count - sent, batchSize: 500, seed: sent + 1 });
        sent = count;
      }
      const head = await getHeadNumber(rpc);
      const pairs = options.overheadPairs ?? 0;
      // Alternated, so that a drift of the machine's load falls on both alike.
      const modes: (boolean | undefined)[] = pairs > 0 ? Array.from({ length: 2 * pairs }, (_, i) => i % 2 === 0) : [undefined];
      for (const backend of options.backends) for (const instrumented of modes) {
        const db = backend === "postgres" ? await createThrowawayDatabase(options.databaseUrl) : null;
        const store = await createNodeStore(db?.options ?? {});
        const id = `QmBench${count}${backend}${instrumented === undefined ? "" : instrumented ? "on" : "off"}`;
        try {
          await store.createDeployment({ id, schemaSdl: deployment.schemaSdl, network: "localhost", startBlock: fx.token.startBlock, manifest: "" });
          let firstRange = 0;
          // As in the node: the host thread is loaded before a deployment arrives.
          const hostThreads = createHostThreadPool();
          await hostThreads.warm();
          const profile = createHandlerProfile();
          // Instrumented: the RPC timed as the node times it, and graph-node's metrics scraped every second.
          const metrics = instrumented
            ? createNodeMetrics({ deployments: () => store.listDeployments(), isIndexing: () => true, profile: () => profile.snapshot(), chainHead: async () => ({ number: head, hash: "" }) })
            : null;
          const scraper = metrics ? setInterval(() => void metrics.scrape(), 1000) : null;
          const indexer = createDeploymentIndexer({
            hostThreads,
            store,
            rpc: metrics ? timedRpc(rpc, { metrics, provider: "bench-rpc-0", deployment: currentDeployment }) : rpc,
            profile,
            ...(instrumented === false ? { instrumentation: false } : {}),
            deployment: { ...deployment, id, ...(options.specVersion ? { specVersion: options.specVersion } : {}) },
            log: (level, m) => {
              if (m.includes("indexing from block")) firstRange ||= performance.now();
              // BENCH_TRACE=1: every line, timed from start(), to see where a run spends its time.
              if (process.env.BENCH_TRACE) log(`  ${(performance.now() - t0).toFixed(0)} ms ${level}: ${m}`);
              else if (level !== "debug" && level !== "info") log(`  ${level}: ${m}`);
            },
            pollIntervalMs: 20,
            ...(options.proofOfIndexing === false ? { proofOfIndexing: false } : {}),
          });
          const baseline = process.memoryUsage().rss;
          let peak = baseline;
          const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
          const t0 = performance.now();
          const cpu0 = process.cpuUsage();
          void indexer.start();
          while ((await store.getDeployment(id))?.latestBlock?.number !== head) {
            if (indexer.state === "failed" || indexer.state === "stopped") throw new Error(`indexing ${backend} stopped: ${indexer.state}`);
            await new Promise((r) => setTimeout(r, 10));
          }
          const done = performance.now();
          const cpu = process.cpuUsage(cpu0);
          const seconds = (done - t0) / 1000;
          const indexingSeconds = (done - (firstRange || t0)) / 1000;
          clearInterval(sampler);
          if (scraper) clearInterval(scraper);
          await indexer.stop();
          await hostThreads.close();
          const entities = await store.entityCount(id);
          const expected = options.proofOfIndexing === false ? count : count + 1;
          if (entities !== expected) throw new Error(`expected ${count} entities${expected > count ? " and the proof of indexing" : ""}, the store has ${entities}`);
          const figure: IndexingFigure = {
            backend,
            approvals: count,
            seconds,
            approvalsPerSecond: count / seconds,
            indexingSeconds,
            indexingApprovalsPerSecond: count / indexingSeconds,
            baselineRssMiB: baseline / 2 ** 20,
            peakRssMiB: peak / 2 ** 20,
            maxRssMiB: process.resourceUsage().maxRSS / 1024,
            ...(instrumented === undefined ? {} : { instrumented }),
            cpuMicrosPerApproval: (cpu.user + cpu.system) / count,
          };
          if (instrumented === undefined && (options.queryAt ?? [Math.max(...options.counts)]).includes(count)) {
            const server = await createQueryServer({ store, port: 0 });
            try {
              const q = await measureQueryLatency({ queryUrl: `${server.url}/subgraphs/id/${id}`, owner: fx.token.deployer.toLowerCase(), rounds: options.queryRounds ?? 50 });
              figure.query = { firstMs: q.first1000, ownerMs: q.byOwner };
            } finally {
              await server.close();
            }
          }
          figures.push(figure);
          log(formatFigure(figure));
        } finally {
          await store.close();
          await db?.cleanup();
        }
      }
    }
  } finally {
    await fx.stop();
  }
  return figures;
}

export function formatFigure(f: IndexingFigure): string {
  const q = f.query
    ? `; query first:1000 p50 ${f.query.firstMs.p50.toFixed(1)} ms p99 ${f.query.firstMs.p99.toFixed(1)} ms, owner filter p50 ${f.query.ownerMs.p50.toFixed(1)} ms p99 ${f.query.ownerMs.p99.toFixed(1)} ms`
    : "";
  const mode = f.instrumented === undefined ? "" : f.instrumented ? "with profile+metrics    " : "without profile+metrics ";
  return `${mode}${f.backend.padEnd(8)} ${String(f.approvals).padStart(7)} approvals in ${f.seconds.toFixed(2)} s = ${Math.round(f.approvalsPerSecond)} approvals/s from start(), ${f.indexingSeconds.toFixed(2)} s = ${Math.round(f.indexingApprovalsPerSecond)} approvals/s without; RSS ${f.baselineRssMiB.toFixed(0)} MiB before, peak ${f.peakRssMiB.toFixed(0)} MiB (maxRSS ${f.maxRssMiB.toFixed(0)} MiB), CPU ${f.cpuMicrosPerApproval.toFixed(1)} µs/approval${q}`;
}

/** Per count and backend: the median rate with and without the profile and metrics, and what they cost. */
export function overheadSummary(figures: IndexingFigure[]): string[] {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const lines: string[] = [];
  const keys = new Set(figures.filter((f) => f.instrumented !== undefined).map((f) => `${f.backend} ${f.approvals}`));
  for (const key of keys) {
    const of = (on: boolean) => figures.filter((f) => `${f.backend} ${f.approvals}` === key && f.instrumented === on).map((f) => f.indexingApprovalsPerSecond);
    const on = of(true);
    const off = of(false);
    const cost = 1 - median(on) / median(off);
    const cpuOf = (want: boolean) => figures.filter((f) => `${f.backend} ${f.approvals}` === key && f.instrumented === want).map((f) => f.cpuMicrosPerApproval);
    const cpuOn = median(cpuOf(true));
    const cpuOff = median(cpuOf(false));
    lines.push(`${key} approvals: median ${Math.round(median(on))}/s with profile+metrics (${on.map(Math.round).join(", ")}), ${Math.round(median(off))}/s without (${off.map(Math.round).join(", ")}): rate cost ${(100 * cost).toFixed(1)}%`);
    lines.push(`${key} approvals: median CPU ${cpuOn.toFixed(1)} µs/approval with (${cpuOf(true).map((v) => v.toFixed(1)).join(", ")}), ${cpuOff.toFixed(1)} without (${cpuOf(false).map((v) => v.toFixed(1)).join(", ")}): CPU cost ${(100 * (cpuOn / cpuOff - 1)).toFixed(1)}%`);
    // The hooks alone: one handler call and one store.set per approval here.
    const hooks = measureProfileHooks();
    lines.push(
      `${key} approvals: the profile's hooks alone cost ${hooks.costNs.toFixed(0)} ns per handler call (${hooks.withNs.toFixed(0)} ns with, ${hooks.withoutNs.toFixed(0)} ns without, in a tight loop): ` +
        `${((100 * hooks.costNs) / 1000 / cpuOn).toFixed(2)}% of the ${cpuOn.toFixed(1)} µs of CPU an approval takes`,
    );
  }
  return lines;
}
