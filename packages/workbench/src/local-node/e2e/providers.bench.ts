// `npm run bench:providers`: the local node's catch-up through the seeded fault proxy (faultProxy.ts) in
// front of one Hardhat chain, clean and then under faulted profiles, one after the other in the same run;
// each run's rows are checked against the chain's own logs, and each faulted catch-up is given as a ratio
// of the clean one. The node, the graph-cli deploy and the chain are the real ones of the e2e tests.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { createLocalNode } from "../index.js";
import { blockNumber, buildFor, byId, chainApprovals, deployWithGraphCli, queryAllApprovals, rpc as rpcCall, startChainWithToken, statusOf, waitForHead } from "./harness.js";
import { startFaultProxy, type FaultProfile } from "./faultProxy.js";
import { startGraphNodeOracle } from "../../parity/index.js";

export interface ProvidersBenchOptions {
  approvals: number;
  /** Blocks the approvals are spread over (one transaction per block). */
  blocks: number;
  /** Faulted shares to run after the clean one (default 0.1 and 0.25). */
  rates: number[];
  /** Runs of each profile, in turn (default 1). */
  rounds: number;
  seed: number;
  log(line: string): void;
}

export interface ProvidersFigure {
  profile: string;
  rate: number;
  round: number;
  seconds: number;
  /** This catch-up over the same round's clean one. */
  ratio: number;
  requests: number;
  faults: number;
  rowsExact: boolean;
}

/** Every fault kind alike; slow answers held 2 s, Retry-After 1 s. */
const faulted = (rate: number): FaultProfile => ({ rate, slowMs: 2_000, retryAfterSeconds: 1 });

export async function runProvidersBench(options: ProvidersBenchOptions): Promise<ProvidersFigure[]> {
  const { log } = options;
  log("starting Hardhat and deploying the token behind its proxy");
  const fx = await startChainWithToken();
  const figures: ProvidersFigure[] = [];
  try {
    const built = await buildFor(fx.token);
    const perTx = Math.max(1, Math.round(options.approvals / options.blocks));
    log(`sending ${options.approvals} approvals, ${perTx} per transaction (about ${Math.ceil(options.approvals / perTx)} blocks)`);
    await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: options.approvals, batchSize: perTx });
    const head = await blockNumber(fx.chain.url);
    const truth = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    log(`chain at block ${head}, ${truth.length} approvals`);
    for (let round = 1; round <= options.rounds; round++) {
      let clean = 0;
      for (const rate of [0, ...options.rates]) {
        const proxy = await startFaultProxy({ target: fx.chain.url, seed: options.seed + round, profile: faulted(rate) });
        const dataDir = await mkdtemp(join(tmpdir(), "providers-bench-"));
        const lines: string[] = [];
        const node = await createLocalNode({ ethereumRpc: `localhost:${proxy.url}`, dataDir, ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: (l) => lines.push(l), pollIntervalMs: 100 });
        try {
          const name = `bench/providers-${round}-${Math.round(rate * 100)}`;
          await deployWithGraphCli(built, name, node.urls);
          const status = await waitForHead(node.urls.status, name, fx.chain.url, 600_000);
          // The catch-up as the node logs it: from its first step ("indexing from block") to "synced at block".
          const at = (pattern: RegExp) => Date.parse(lines.find((l) => pattern.test(l))?.split(" ")[0] ?? "");
          const seconds = (at(/: synced at block/) - at(/: indexing from block/)) / 1000;
          if (!Number.isFinite(seconds)) throw new Error(`the node did not log its catch-up:\n${lines.slice(-10).join("\n")}`);
          const rows = await queryAllApprovals(`${node.urls.query}/subgraphs/name/${name}`);
          const rowsExact = status.health === "healthy" && JSON.stringify(rows) === JSON.stringify(truth);
          if (rate === 0) clean = seconds;
          const faults = Object.values(proxy.counts.faults).reduce((n, k) => n + (k ?? 0), 0);
          const figure: ProvidersFigure = { profile: rate === 0 ? "clean" : `1 in ${Math.round(1 / rate)} faulted`, rate, round, seconds, ratio: clean > 0 ? seconds / clean : 1, requests: proxy.counts.requests, faults, rowsExact };
          figures.push(figure);
          log(`round ${round}, ${figure.profile}: ${seconds.toFixed(2)} s (${figure.ratio.toFixed(2)}x clean), ${figure.requests} requests, ${faults} faulted, rows ${rowsExact ? "exact" : "WRONG"}`);
        } finally {
          await node.close();
          await proxy.close();
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await fx.stop();
  }
  return figures;
}

export interface SparseBenchOptions {
  /** Blocks mined (hardhat_mine) between and around the events. */
  blocks: number;
  /** Approval transactions spread evenly over the blocks. */
  events: number;
  /** Then graph-node (`gnd dev`) on the same chain, given this long to reach the head (0: not run). */
  graphNodeTimeoutMs?: number;
  log(line: string): void;
}

export interface SparseFigure {
  blocks: number;
  events: number;
  seconds: number;
  blocksPerSecond: number;
  eventsPerSecond: number;
  /** Calls the node made, by method, as the (clean) proxy counted them. */
  calls: Record<string, number>;
  rowsExact: boolean;
  /** graph-node on the same chain: from its start (an embedded Postgres, gnd dev) to the head, and its rows. */
  graphNode?: { seconds: number; reachedHead: boolean; latestBlock: number; rowsExact: boolean };
}

/**
 * A long chain with few events: an event-only subgraph's catch-up must cost about the events' blocks,
 * not every block (the headers asked for are counted).
 */
export async function runSparseBench(options: SparseBenchOptions): Promise<SparseFigure> {
  const { log } = options;
  const fx = await startChainWithToken();
  try {
    const built = await buildFor(fx.token);
    const gap = Math.max(1, Math.floor(options.blocks / options.events));
    log(`mining ${options.blocks} blocks with ${options.events} approvals, one every ${gap} blocks`);
    for (let i = 0; i < options.events; i++) {
      await rpcCall(fx.chain.url, "hardhat_mine", [`0x${(gap - 1).toString(16)}`]);
      await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 1, seed: 1_000 + i });
    }
    const head = await blockNumber(fx.chain.url);
    const truth = (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).sort(byId);
    log(`chain at block ${head}, ${truth.length} approvals`);
    const proxy = await startFaultProxy({ target: fx.chain.url, seed: 1, profile: { rate: 0 } });
    const dataDir = await mkdtemp(join(tmpdir(), "sparse-bench-"));
    const lines: string[] = [];
    const node = await createLocalNode({ ethereumRpc: `localhost:${proxy.url}`, dataDir, ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: (l) => lines.push(l), pollIntervalMs: 100 });
    try {
      const name = "bench/sparse";
      await deployWithGraphCli(built, name, node.urls);
      const status = await waitForHead(node.urls.status, name, fx.chain.url, 900_000);
      const at = (pattern: RegExp) => Date.parse(lines.find((l) => pattern.test(l))?.split(" ")[0] ?? "");
      const seconds = (at(/: synced at block/) - at(/: indexing from block/)) / 1000;
      const rows = await queryAllApprovals(`${node.urls.query}/subgraphs/name/${name}`);
      const figure: SparseFigure = {
        blocks: head - fx.token.startBlock + 1,
        events: truth.length,
        seconds,
        blocksPerSecond: (head - fx.token.startBlock + 1) / seconds,
        eventsPerSecond: truth.length / seconds,
        calls: { ...proxy.counts.methods },
        rowsExact: status.health === "healthy" && JSON.stringify(rows) === JSON.stringify(truth),
      };
      if (!figure.rowsExact) {
        const missing = truth.filter((t) => !rows.some((r) => r.id === t.id)).length;
        const extra = rows.filter((r) => !truth.some((t) => t.id === r.id)).length;
        for (const t of truth) if (!rows.some((r) => r.id === t.id)) log(`missing ${t.id}: block ${Number((await rpcCall<{ blockNumber: string }>(fx.chain.url, "eth_getTransactionReceipt", [t.id.split("-")[0]])).blockNumber)}`);
        log(`health ${status.health}, ${rows.length} rows: ${missing} missing, ${extra} not on the chain; ${JSON.stringify(status.fatalError)}`);
        log(lines.slice(-15).join("\n"));
      }
      log(`sparse: ${figure.blocks} blocks, ${figure.events} events in ${seconds.toFixed(2)} s (${Math.round(figure.blocksPerSecond)} blocks/s); calls ${JSON.stringify(figure.calls)}; rows ${figure.rowsExact ? "exact" : "WRONG"}`);
      if (options.graphNodeTimeoutMs) {
        log("graph-node (gnd dev) on the same chain");
        const started = performance.now();
        // It reads files from the local node's IPFS, as in the parity runs; its own start-up is in the figure.
        // PARITY_GRAPH_NODE_LOG=1 shows its own log.
        const gnd = await startGraphNodeOracle(built, { chainUrl: fx.chain.url, network: "localhost", name, ipfs: new URL(node.urls.ipfs).host, log });
        try {
          const statusRoot = gnd.statusUrl.replace(/\/graphql$/, "");
          const reached = await waitForHead(statusRoot, name, fx.chain.url, options.graphNodeTimeoutMs).then(
            (s) => ({ ok: true, latest: Number(s.chains[0]?.latestBlock?.number ?? -1) }),
            async () => ({ ok: false, latest: Number((await statusOf(statusRoot, name).catch(() => null))?.chains[0]?.latestBlock?.number ?? -1) }),
          );
          const gndSeconds = (performance.now() - started) / 1000;
          const gndRows = reached.ok ? await queryAllApprovals(gnd.queryUrl) : [];
          figure.graphNode = { seconds: gndSeconds, reachedHead: reached.ok, latestBlock: reached.latest, rowsExact: reached.ok && JSON.stringify(gndRows) === JSON.stringify(truth) };
          log(`graph-node: ${reached.ok ? `at the head in ${gndSeconds.toFixed(1)} s (start-up included)` : `not at the head after ${gndSeconds.toFixed(0)} s: at block ${reached.latest}`}; rows ${figure.graphNode.rowsExact ? "exact" : reached.ok ? "WRONG" : "-"}`);
        } finally {
          await gnd.close();
        }
      }
      return figure;
    } finally {
      await node.close();
      await proxy.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  } finally {
    await fx.stop();
  }
}
