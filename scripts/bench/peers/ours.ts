// Our side of the peer bench: `npm run local-node` (the tsc-compiled node) from nothing, and the
// workload's subgraph through the unmodified graph-cli on the path `npm start` takes (one warm graph-cli
// process: codegen while the node starts, `graph build --ipfs` once its IPFS API answers, `graph create`, `graph
// deploy --ipfs-hash`), until the status says it indexed the chain's head.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { createWarmGraphCli } from "subgraph-workbench/lib/warmGraphCli";
import { waitForIpfsApi } from "subgraph-workbench/lib/ipfsApiReady";
import { deployWithGraphCli, freePorts, waitForHead } from "../../../packages/workbench/src/local-node/e2e/harness.js";
import { isLauncher, secondsBetween } from "../../../packages/workbench/src/local-node/e2e/nodeMemory.bench.js";
import { runDetached, settledPhase, waitUntil, type EngineRun, type EngineOptions } from "./engineRun.js";
import { buildWorkloadSubgraph, readSubgraphRows } from "./subgraphRows.js";
import type { PeerChain, Workload } from "./workload.js";
import { watchTree } from "./treeUsage.js";

export async function runOurs(chain: PeerChain, workload: Workload, options: EngineOptions): Promise<EngineRun> {
  const NAME = workload.subgraph.name;
  const dataDir = await mkdtemp(join(tmpdir(), "bench-peers-ours-"));
  const ports = await freePorts();
  const urls = { admin: `http://127.0.0.1:${ports.admin}`, ipfs: `http://127.0.0.1:${ports.ipfs}`, status: `http://127.0.0.1:${ports.status}` };
  const args = ["--query-port", String(ports.query), "--admin-port", String(ports.admin), "--ipfs-port", String(ports.ipfs), "--status-port", String(ports.status), "--data-dir", dataDir, "--ethereum-rpc", chain.rpcUrl];
  let built: BuiltSubgraph | undefined;
  const graph = createWarmGraphCli();
  const started = Date.now();
  const proc = runDetached("npm", ["run", "--silent", "local-node", "--", ...args], { cwd: projectRoot, env: { ...process.env, DATABASE_URL: "" } });
  // npm and its shell are the user's launcher: left out, as in bench:node-memory.
  const tree = watchTree(proc.pid, { ours: (p) => !isLauncher(p) });
  try {
    let up = 0;
    const nodeUp = waitUntil(async () => /queries http/.test(proc.output()), { timeoutMs: 120_000, what: "the local node to start", ended: proc.ended, output: proc.output }).then(() => {
      up = Date.now();
    });
    nodeUp.catch(() => undefined);
    options.log("ours: node starting beside graph codegen; graph build --ipfs, graph create, graph deploy --ipfs-hash");
    // The node's IPFS API listens before the rest of it is up: the build waits only for that.
    const ipfsReady = waitForIpfsApi(urls.ipfs, { timeoutMs: 120_000, gaveUp: nodeUp });
    built = await buildWorkloadSubgraph(workload.subgraph, chain, { ipfs: urls.ipfs, ipfsReady, runner: graph.runner });
    const builtAt = Date.now();
    await nodeUp;
    const deployFrom = Date.now();
    await deployWithGraphCli(built, NAME, urls, { runner: graph.runner });
    const deployed = Date.now();
    const status = await waitForHead(urls.status, NAME, chain.rpcUrl, options.timeoutMs);
    if (status.health !== "healthy") throw new Error(`our node did not index the chain: ${JSON.stringify(status)}`);
    const synced = Date.now();
    // After it syncs, the node builds the attribute indexes and hashes the proof of indexing it deferred.
    const settled = await tree.settle("ours");
    const usage = tree.stop().ours!;
    const indexingSeconds = secondsBetween(proc.output(), new RegExp(`deployed ${NAME}`), /synced at block/);
    const rows = await readSubgraphRows(`http://127.0.0.1:${ports.query}/subgraphs/name/${NAME}`, workload.subgraph);
    const s = (from: number, to: number) => (to - from) / 1000;
    return {
      figure: {
        engine: "ours",
        events: chain.events,
        indexingSeconds,
        coldSeconds: s(started, synced),
        cpuSeconds: usage.cpuSeconds,
        peakMiB: usage.peakMiB,
        phases: [
          { label: "node start-up (beside codegen and build)", seconds: s(started, up) },
          { label: "codegen + build --ipfs", seconds: s(started, builtAt) },
          { label: "create + deploy", seconds: s(deployFrom, deployed) },
          { label: "deploy to synced (status)", seconds: s(deployed, synced) },
          settledPhase(settled),
        ],
        parts: [],
        processes: usage.processes,
      },
      rows,
      output: proc.output(),
    };
  } catch (error) {
    // A failed step (a build, a deploy, the wait for the head) says what failed; the node's log says why.
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- the local node's output, last lines ---\n${proc.output().trim().split("\n").slice(-30).join("\n")}`, { cause: error });
  } finally {
    tree.stop();
    await graph.close();
    await proc.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (built) await rm(built.workDir, { recursive: true, force: true });
  }
}
