// `npm run bench:peers`: one Hardhat chain per workload, prepared by the workload, then every engine on it
// one after the other, each from nothing; every engine's rows are checked against the chain's own logs.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { rpc } from "../../../packages/workbench/src/local-node/e2e/harness.js";
import { engineEntry, type EngineName } from "./engines.js";
import { PONDER_FINALITY_BLOCKS } from "./ponder.js";
import type { EngineFigure } from "./report.js";
import { compareWithChain, digestRows, type RowDigest } from "./rows.js";
import type { Workload } from "./workload.js";

export interface PeersBenchOptions {
  workload: Workload;
  events: number;
  engines: EngineName[];
  /**
   * Runs of each engine, alternated (default 1): on a shared machine one run varies by 5-10%, and the
   * report takes the medians. Engines marked `once` (graph-node) run in the first round only.
   */
  rounds?: number;
  /** A folder to write each engine's own log to (`<workload>-<engine>.log`). */
  logsDir?: string;
  log(line: string): void;
}

export async function runPeersBench(options: PeersBenchOptions): Promise<EngineFigure[]> {
  const { log, workload } = options;
  if (options.logsDir) await mkdir(options.logsDir, { recursive: true });
  log(`=== workload ${workload.name}`);
  const prepared = await workload.prepare({ events: options.events, log });
  try {
    const { chain } = prepared;
    // Ponder takes a chain it does not know as final 30 blocks below the head, and indexes the newer blocks
    // live, one by one, after its backfill: empty blocks on top put every event in its backfill, its fast path.
    // One evm_mine each: hardhat_mine's blocks come back with a zero parent hash, which graph-node refuses.
    for (let i = 0; i < PONDER_FINALITY_BLOCKS; i++) await rpc(chain.rpcUrl, "evm_mine");
    const expected = digestRows(await prepared.expected(), workload.shape);
    if (expected.count !== options.events) throw new Error(`the chain holds ${expected.count} ${workload.eventsLabel}, not the ${options.events} sent`);
    // Generous: graph-node indexes about 450 events/s here.
    const timeoutMs = 120_000 + options.events * 10;
    const figures: EngineFigure[] = [];
    const digests: Record<string, RowDigest> = {};
    const rounds = options.rounds ?? 1;
    const runs = Array.from({ length: rounds }, (_, r) => options.engines.filter((e) => r === 0 || !engineEntry(e).once).map((engine) => ({ engine, round: r + 1 }))).flat();
    for (const { engine, round } of runs) {
      const several = rounds > 1 && !engineEntry(engine).once;
      log(`--- ${engine}${several ? ` (round ${round} of ${rounds})` : ""}`);
      const run = await engineEntry(engine).run(chain, workload, { timeoutMs, log });
      if (options.logsDir) await writeFile(join(options.logsDir, `${workload.name}-${engine}${several ? `-${round}` : ""}.log`), run.output);
      const digest = digestRows(run.rows, workload.shape);
      digests[engine] = digest;
      figures.push(several ? { ...run.figure, round } : run.figure);
      log(`${engine}: ${digest.count.toLocaleString("en-US")} rows (digest ${digest.sha256.slice(0, 12)}), indexing ${run.figure.indexingSeconds.toFixed(2)} s, cold ${run.figure.coldSeconds.toFixed(1)} s`);
      // Fail as soon as one differs, not after the next engine's minutes.
      compareWithChain(expected, { [engine]: digest });
    }
    compareWithChain(expected, digests);
    log(`all engines hold the chain's ${expected.count.toLocaleString("en-US")} events (digest ${expected.sha256.slice(0, 12)})`);
    return figures;
  } finally {
    await prepared.stop();
  }
}
