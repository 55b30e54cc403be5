// `npm run bench:runner`: cold compile per test file, warm suite run, ApprovalHandler calls/s.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { benchColdCompile, benchHandler, benchWarmRun, findBuiltWasm } from "../../packages/workbench/src/test-runner/runner.bench.js";
import { buildSubgraph } from "subgraph-workbench/lib/subgraphBuild";

const root = process.cwd();
const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;

console.log("Matchstick runner benchmark (2 cores shared; figures vary run to run)\n");

const cold = await benchColdCompile(root);
console.log(`cold compile: loading AssemblyScript ${fmt(cold.loadMs)}`);
for (const f of cold.files) console.log(`  ${f.file}.test.ts: ${fmt(f.ms)}`);

// Fill the cache once, then time runs with nothing changed: in-process, and the whole CLI process.
await benchWarmRun(root);
const warm = await benchWarmRun(root);
console.log(`\nwarm run, nothing changed (in-process): ${fmt(warm.ms)} — ${warm.passed} passed, ${warm.failed} failed, ${warm.compiled} recompiled`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const cliTimes: number[] = [];
let exit: number | null = null;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  exit = spawnSync(join(root, "node_modules", ".bin", "tsx"), ["test-runner/cli.ts"], { cwd: root, encoding: "utf8" }).status;
  cliTimes.push(performance.now() - t0);
}
console.log(
  `warm run, nothing changed (tsx test-runner/cli.ts, whole process): median ${fmt(median(cliTimes))} of ${cliTimes.map(fmt).join(", ")} (exit ${exit}) — target < 1000 ms`,
);

const built = await buildSubgraph({ address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", startBlock: 1 });
try {
  const wasm = await WebAssembly.compile(findBuiltWasm(built.buildDir));
  const sdl = readFileSync(join(root, "schema.graphql"), "utf8");
  await benchHandler(wasm, sdl, 20_000, 50); // warm-up: V8 optimises the codec
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await benchHandler(wasm, sdl, 100_000, 50));
  const rates = runs.map((r) => r.eventsPerSecond);
  console.log(
    `\nApprovalHandler through the host + memory store, 100,000 calls (50 per block), 3 runs: median ` +
      `${median(rates).toLocaleString("en-US")} calls/s (${rates.map((r) => r.toLocaleString("en-US")).join(", ")}; ${runs[0]?.entities} entities) — target >= 50,000/s`,
  );
} finally {
  rmSync(built.workDir, { recursive: true, force: true });
}
