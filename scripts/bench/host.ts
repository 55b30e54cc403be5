// `npm run bench:host`: builds our subgraph with graph-cli and prints ApprovalHandler throughput
// through the WASM host with the store. Thin: the work is in approvalBench.ts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { runApprovalBench } from "../../packages/workbench/src/wasm-host/approvalHandler.bench.js";

const events = Number(process.argv[2] ?? 200_000);
const built = await buildSubgraph({ address: "0xa16081f360e3847006db660bae1c6d1b2e17ec2a", startBlock: 1 });
const wasm = await readFile(join(built.buildDir, "ApprovalToken/ApprovalToken.wasm"));
const schemaSdl = await readFile(join(built.buildDir, "schema.graphql"), "utf8");
const module = await WebAssembly.compile(wasm);
// A short warm-up run lets V8 optimise the codec before the measured run.
await runApprovalBench({ wasm: module, schemaSdl, handler: "ApprovalHandler", events: 20_000, eventsPerBlock: 50 });
const runs = [
  { eventsPerBlock: 1, keepChanges: true, label: "with the in-memory store" },
  { eventsPerBlock: 50, keepChanges: true, label: "with the in-memory store" },
  { eventsPerBlock: 50, keepChanges: false, label: "changes taken and dropped (host alone)" },
];
for (const { eventsPerBlock, keepChanges, label } of runs) {
  const r = await runApprovalBench({ wasm: module, schemaSdl, handler: "ApprovalHandler", events, eventsPerBlock, keepChanges });
  console.log(
    `ApprovalHandler, ${label}, ${eventsPerBlock} event(s)/block, ${r.events} events: ` +
      `${r.eventsPerSecond} events/s wall, ${r.eventsPerCpuSecond} events per CPU-second ` +
      `(${r.milliseconds.toFixed(0)} ms wall, ${r.cpuMilliseconds.toFixed(0)} ms CPU; instantiate ${r.instantiateMilliseconds.toFixed(1)} ms; ${r.entities} entities stored)`,
  );
}
