// `npm run bench:runner`: cold compile per test file, warm suite run, ApprovalHandler calls/s.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { benchColdCompile, benchHandler, benchWarmRun, findBuiltWasm } from "../../bench/runner/benchmark.js";
import { buildSubgraph } from "../lib/subgraphBuild.js";

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
const t0 = performance.now();
const cli = spawnSync(join(root, "node_modules", ".bin", "tsx"), ["bench/runner/cli.ts"], { cwd: root, encoding: "utf8" });
console.log(`warm run, nothing changed (tsx bench/runner/cli.ts, whole process): ${fmt(performance.now() - t0)} (exit ${cli.status}) — target < 1000 ms`);

const built = await buildSubgraph({ address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", startBlock: 1 });
try {
  const wasm = await WebAssembly.compile(findBuiltWasm(built.buildDir));
  const sdl = readFileSync(join(root, "schema.graphql"), "utf8");
  await benchHandler(wasm, sdl, 20_000, 50); // warm-up: V8 optimises the codec
  const r = await benchHandler(wasm, sdl, 100_000, 50);
  console.log(
    `\nApprovalHandler through the host + memory store: ${r.events} calls (50 per block) in ${fmt(r.milliseconds)} = ` +
      `${r.eventsPerSecond.toLocaleString("en-US")} calls/s (${r.entities} entities) — target >= 50,000/s`,
  );
} finally {
  rmSync(built.workDir, { recursive: true, force: true });
}
