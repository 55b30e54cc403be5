// graph-node's side of the peer bench: `gnd dev` v0.45 on an embedded PostgreSQL, started as `npm start
// --engine graph-node` starts it (scripts/lib/graphNodeEngine.ts), on a build made with graph-cli.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import type { ProcessMemory } from "subgraph-workbench/lib/processTreeMemory";
import { freePorts, waitForHead } from "../../../packages/workbench/src/local-node/e2e/harness.js";
import { startGraphNodeServices, type GraphNodeServices } from "subgraph-workbench/node-services";
import { settledPhase, type EngineRun, type EngineOptions } from "./engineRun.js";
import { buildWorkloadSubgraph, readSubgraphRows } from "./subgraphRows.js";
import type { PeerChain, Workload } from "./workload.js";
import { watchTree } from "./treeUsage.js";

const isGnd = (p: ProcessMemory) => /^gnd /.test(p.command);
// The postmaster ("postgres -D ...") and its backends and workers ("postgres: ...").
const isPostgres = (p: ProcessMemory) => /^postgres[: ]/.test(p.command);

export async function runGraphNode(chain: PeerChain, workload: Workload, options: EngineOptions): Promise<EngineRun> {
  const NAME = workload.subgraph.name;
  const dataDir = await mkdtemp(join(tmpdir(), "bench-peers-graph-node-"));
  // Run as root, the embedded Postgres runs as 'nobody', which must reach its cluster inside.
  await chmod(dataDir, 0o755);
  const ports = await freePorts();
  // gnd and its Postgres are this process's children (beside Hardhat): watched by name.
  const tree = watchTree(process.pid, { total: (p) => isGnd(p) || isPostgres(p), gnd: isGnd, postgres: isPostgres }, 200);
  let built: BuiltSubgraph | undefined;
  let services: GraphNodeServices | undefined;
  const output: string[] = [];
  const started = Date.now();
  try {
    built = await buildWorkloadSubgraph(workload.subgraph, chain);
    const builtAt = Date.now();
    options.log("graph-node: built; starting its Postgres and gnd dev");
    services = await startGraphNodeServices({ ethereumRpc: chain.rpcUrl, manifest: join(built.workDir, "subgraph.yaml"), dataDir, ports, name: NAME, reset: true, log: (line) => output.push(line) });
    const deployed = Date.now();
    const status = await waitForHead(`http://127.0.0.1:${ports.status}`, NAME, chain.rpcUrl, options.timeoutMs);
    if (status.health !== "healthy") throw new Error(`graph-node did not index the chain: ${JSON.stringify(status)}`);
    const synced = Date.now();
    const settled = await tree.settle("total");
    const usage = tree.stop();
    const rows = await readSubgraphRows(`http://127.0.0.1:${ports.query}/subgraphs/name/${NAME}`, workload.subgraph);
    const s = (from: number, to: number) => (to - from) / 1000;
    const part = (label: "gnd" | "postgres") => ({ label, peakMiB: usage[label]!.peakMiB, cpuSeconds: usage[label]!.cpuSeconds });
    return {
      figure: {
        engine: "graph-node",
        events: chain.events,
        indexingSeconds: s(deployed, synced),
        coldSeconds: s(started, synced),
        cpuSeconds: usage.total!.cpuSeconds,
        peakMiB: usage.total!.peakMiB,
        phases: [
          { label: "codegen + build", seconds: s(started, builtAt) },
          { label: "Postgres and gnd start-up, deployment named", seconds: s(builtAt, deployed) },
          { label: "named to synced (status)", seconds: s(deployed, synced) },
          settledPhase(settled),
        ],
        parts: [part("gnd"), part("postgres")],
        processes: usage.total!.processes,
      },
      rows,
      output: output.join("\n"),
    };
  } finally {
    tree.stop();
    await services?.close();
    await rm(dataDir, { recursive: true, force: true });
    if (built) await rm(built.workDir, { recursive: true, force: true });
  }
}
