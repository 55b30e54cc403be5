// `npm run bench:peers`: one Hardhat chain with N Approval events, then ours, Ponder and graph-node on
// it one after the other, each from nothing; every engine's rows are checked against the chain's events.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sendApprovals } from "../../../hardhat/deploy/approvals.js";
import { chainApprovals, rpc, startChainWithToken } from "../../../packages/workbench/src/local-node/e2e/harness.js";
import type { EngineRun } from "./engineRun.js";
import { runGraphNode } from "./graphNode.js";
import { runOurs } from "./ours.js";
import { PONDER_FINALITY_BLOCKS, runPonder } from "./ponder.js";
import { compareWithChain, digestRows, type EngineFigure, type EngineName, type RowDigest } from "./report.js";
import type { PeerChain } from "./subgraphRows.js";

export interface PeersBenchOptions {
  events: number;
  engines: EngineName[];
  /**
   * Runs of ours and Ponder, alternated (default 1): on a shared machine one run varies by 5-10%, and the
   * report takes the medians. graph-node runs once (its runs take minutes, and its ratio is far from the target).
   */
  rounds?: number;
  /** A folder to write each engine's own log to (`<engine>.log`). */
  logsDir?: string;
  log(line: string): void;
}

export async function runPeersBench(options: PeersBenchOptions): Promise<EngineFigure[]> {
  const { log } = options;
  if (options.logsDir) await mkdir(options.logsDir, { recursive: true });
  log("starting Hardhat and deploying the token behind its proxy");
  const fx = await startChainWithToken();
  try {
    log(`sending ${options.events.toLocaleString("en-US")} approvals (approveMany batches of 500)`);
    const sent = await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: options.events, batchSize: 500, seed: 1 });
    // Ponder takes a chain it does not know as final 30 blocks below the head, and indexes the newer blocks
    // live, one by one, after its backfill: empty blocks on top put every event in its backfill, its fast path.
    // One evm_mine each: hardhat_mine's blocks come back with a zero parent hash, which graph-node refuses.
    for (let i = 0; i < PONDER_FINALITY_BLOCKS; i++) await rpc(fx.chain.url, "evm_mine");
    const expected = digestRows(await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock));
    if (expected.count !== options.events) throw new Error(`the chain holds ${expected.count} Approval events, not the ${options.events} sent`);
    const chain: PeerChain = { rpcUrl: fx.chain.url, chainId: fx.token.chainId, token: fx.token.proxy, startBlock: fx.token.startBlock, events: options.events, lastEventBlock: sent.lastBlock };
    // Generous: graph-node indexes about 450 events/s here.
    const timeoutMs = 120_000 + options.events * 10;
    const figures: EngineFigure[] = [];
    const digests: Partial<Record<EngineName, RowDigest>> = {};
    const rounds = options.rounds ?? 1;
    const runs = Array.from({ length: rounds }, (_, r) => options.engines.filter((e) => r === 0 || e !== "graph-node").map((engine) => ({ engine, round: r + 1 }))).flat();
    for (const { engine, round } of runs) {
      const several = rounds > 1 && engine !== "graph-node";
      log(`--- ${engine}${several ? ` (round ${round} of ${rounds})` : ""}`);
      const run: EngineRun =
        engine === "ours"
          ? await runOurs(chain, { timeoutMs, log })
          : engine === "ponder"
            ? await runPonder(chain, { timeoutMs, log })
            : await runGraphNode(chain, { timeoutMs, log });
      if (options.logsDir) await writeFile(join(options.logsDir, several ? `${engine}-${round}.log` : `${engine}.log`), run.output);
      const digest = digestRows(run.rows);
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
    await fx.stop();
  }
}
