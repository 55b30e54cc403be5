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
      for (const backend of options.backends) {
        const db = backend === "postgres" ? await createThrowawayDatabase(options.databaseUrl) : null;
        const store = await createNodeStore(db?.options ?? {});
        const id = `QmBench${count}${backend}`;
        try {
          await store.createDeployment({ id, schemaSdl: deployment.schemaSdl, network: "localhost", startBlock: fx.token.startBlock, manifest: "" });
          let firstRange = 0;
          // As in the node: the host thread is loaded before a deployment arrives.
          const hostThreads = createHostThreadPool();
          await hostThreads.warm();
          const indexer = createDeploymentIndexer({
            hostThreads,
            store,
            rpc,
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
          void indexer.start();
          while ((await store.getDeployment(id))?.latestBlock?.number !== head) {
            if (indexer.state === "failed" || indexer.state === "stopped") throw new Error(`indexing ${backend} stopped: ${indexer.state}`);
            await new Promise((r) => setTimeout(r, 10));
          }
          const done = performance.now();
          const seconds = (done - t0) / 1000;
          const indexingSeconds = (done - (firstRange || t0)) / 1000;
          clearInterval(sampler);
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
          };
          if ((options.queryAt ?? [Math.max(...options.counts)]).includes(count)) {
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
  return `${f.backend.padEnd(8)} ${String(f.approvals).padStart(7)} approvals in ${f.seconds.toFixed(2)} s = ${Math.round(f.approvalsPerSecond)} approvals/s from start(), ${f.indexingSeconds.toFixed(2)} s = ${Math.round(f.indexingApprovalsPerSecond)} approvals/s without; RSS ${f.baselineRssMiB.toFixed(0)} MiB before, peak ${f.peakRssMiB.toFixed(0)} MiB (maxRSS ${f.maxRssMiB.toFixed(0)} MiB)${q}`;
}
