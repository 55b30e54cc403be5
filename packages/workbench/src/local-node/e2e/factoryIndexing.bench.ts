// `npm run bench:indexing -- --factory`: the factory fixture (parity/cases/_test/factory, block
// handlers dropped so that only events count) indexed twice on one chain: every Deposit from ONE
// created pool, then the same number of Deposits spread over many created pools (1,000 by default).
// The ratio spread/single tells what many data sources cost: the fetch filter over every address,
// the matching, and the data-source switch per trigger.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Contract, type Signer } from "ethers";
import { startHardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployPoolFactory, readArtifact } from "../../../../../hardhat/deploy/index.js";
import { connectChain } from "../../../../../hardhat/deploy/signers.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import { deploySubgraph } from "../../deploy/index.js";
import { createLocalNode } from "../index.js";
import { blockNumber } from "./chainFixture.js";

export interface FactoryBenchOptions {
  /** Deposit events per variant (default 20,000). */
  events?: number;
  /** Created pools in the spread variant (default 1,000). */
  pools?: number;
  log(line: string): void;
}

export interface FactoryFigure {
  variant: "single" | "spread";
  pools: number;
  events: number;
  indexingSeconds: number;
  eventsPerSecond: number;
}

async function send(contract: Contract, method: string, args: unknown[]): Promise<void> {
  const tx = (await contract.getFunction(method)(...args)) as { wait(): Promise<unknown> };
  await tx.wait();
}

/** A copy of the factory fixture without block handlers. */
async function eventsOnlyFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "factory-bench-"));
  await cp(join(projectRoot, "testing", "parity", "cases", "_test", "factory"), dir, { recursive: true });
  const yaml = await readFile(join(dir, "subgraph.yaml"), "utf8");
  await writeFile(join(dir, "subgraph.yaml"), yaml.replace(/\n      blockHandlers:\n(?: {8}.*\n)+/g, "\n"));
  return dir;
}

export async function runFactoryBench(options: FactoryBenchOptions): Promise<FactoryFigure[]> {
  const events = options.events ?? 20_000;
  const poolCount = options.pools ?? 1_000;
  const { log } = options;
  const chain = await startHardhatNode();
  const fixture = await eventsOnlyFixture();
  try {
    const { provider, signers } = await connectChain(chain.url);
    const abi = (await readArtifact("PoolFactory", "test/PoolFactory.sol")).abi;
    const single = await deployPoolFactory({ rpcUrl: chain.url });
    const spread = await deployPoolFactory({ rpcUrl: chain.url });
    const owner = signers[0] as Signer;
    log(`single: 1 pool, ${events} deposits`);
    const a = new Contract(single.factory, abi, owner);
    await send(a, "createPool", [0n]);
    for (let done = 0; done < events; done += 1_000) await send(a, "depositRepeat", [0n, BigInt(Math.min(1_000, events - done)), 1n]);
    log(`spread: ${poolCount} pools, ${events} deposits over them`);
    const b = new Contract(spread.factory, abi, owner);
    for (let made = 0; made < poolCount; made += 50) await send(b, "createPools", [BigInt(Math.min(50, poolCount - made)), 0n]);
    for (let done = 0; done < events; ) {
      for (let from = 0; from < poolCount && done < events; from += 200) {
        const to = Math.min(poolCount, from + 200, from + (events - done));
        await send(b, "depositAll", [BigInt(from), BigInt(to), 1n]);
        done += to - from;
      }
    }
    provider.destroy();
    const head = await blockNumber(chain.url);

    const figures: FactoryFigure[] = [];
    for (const [variant, deployed, pools] of [["single", single, 1], ["spread", spread, poolCount]] as const) {
      const built = await buildSubgraph({ projectDir: fixture, address: deployed.factory, startBlock: deployed.startBlock, network: "localhost", dataSource: "PoolFactory" });
      let indexingFrom = 0;
      const node = await createLocalNode({
        ethereumRpc: chain.url,
        ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
        pollIntervalMs: 20,
        // BENCH_TRACE=1: every debug line, to see where a run spends its time.
        ...(process.env.BENCH_TRACE ? { logLevel: "debug" as const } : {}),
        log: (line) => {
          if (/indexing from block/.test(line)) indexingFrom ||= performance.now();
          if (process.env.BENCH_TRACE) log(line);
        },
      });
      try {
        const name = `bench/factory-${variant}`;
        const out = await deploySubgraph({ name, versionLabel: "v1", deployUrl: node.urls.admin, ipfsUrl: node.urls.ipfs, network: "localhost", networkFile: "networks.json", cwd: built.workDir });
        const id = out.deploymentId ?? "";
        while ((await node.store.getDeployment(id))?.latestBlock?.number !== head) {
          const rec = await node.store.getDeployment(id);
          if (rec?.health === "failed") throw new Error(`${variant}: the deployment failed: ${JSON.stringify(rec.fatalError)}`);
          await new Promise((r) => setTimeout(r, 10));
        }
        const seconds = (performance.now() - indexingFrom) / 1000;
        // Every handler call bumps the fixture's global sequence: one per deposit and one per pool created.
        const res = await fetch(`${node.urls.query}/subgraphs/name/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: `{ sequence(id: "global") { next } }` }) });
        const calls = ((await res.json()) as { data?: { sequence?: { next: number } } }).data?.sequence?.next;
        if (calls !== events + pools) throw new Error(`${variant}: expected ${events + pools} handler calls, the subgraph counted ${calls}`);
        const figure: FactoryFigure = { variant, pools, events, indexingSeconds: seconds, eventsPerSecond: events / seconds };
        log(`${variant.padEnd(6)} ${String(pools).padStart(5)} pool(s): ${events} deposits indexed in ${seconds.toFixed(2)} s = ${Math.round(figure.eventsPerSecond)} events/s`);
        figures.push(figure);
      } finally {
        await node.close();
        await rm(built.workDir, { recursive: true, force: true });
      }
    }
    const [s, m] = figures;
    if (s && m) log(`spread/single: ${((m.eventsPerSecond / s.eventsPerSecond) * 100).toFixed(0)}% (target: at least 50%)`);
    return figures;
  } finally {
    await chain.stop();
    await rm(fixture, { recursive: true, force: true });
  }
}
