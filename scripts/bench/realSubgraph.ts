// `npm run bench:real-subgraph -- uniswap-v2 --source <checkout> [--pairs 100 --trades 20000]
// [--engines local,graph-node] [--target 10] [--timeout-minutes 60] [--json <file>]`: a real public
// subgraph on one chain, each engine alone one after the other, timed from nothing to synced, its
// entities checked against the chain; prints the figures, the ratio and whether the target is met.
// Without --pairs/--trades: the workload (100 pairs, 20,000 router calls).
import { writeFile } from "node:fs/promises";
import { benchPassed, benchRealSubgraph, DEFAULT_SCALE, formatBenchReport, parseScale, realSubgraphs, type BenchEngine } from "../../testing/real-subgraphs/index.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values, positionals } = parseCli({
  source: { type: "string" },
  rev: { type: "string" },
  pairs: { type: "string" },
  trades: { type: "string" },
  engines: { type: "string", default: "local,graph-node" },
  target: { type: "string", default: "10" },
  "timeout-minutes": { type: "string", default: "60" },
  json: { type: "string" },
});

const known = realSubgraphs().filter((s) => s.scalable);
const subgraph = known.find((s) => s.name === (positionals[0] ?? "uniswap-v2"));
if (!subgraph) fail(`no scalable real subgraph named ${positionals[0]}; known: ${known.map((s) => s.name).join(", ")}`);
if (!values.source) fail(`--source <dir>: a checkout of ${subgraph.upstream.repository} (git clone https://github.com/${subgraph.upstream.repository})`);
const engines = values.engines.split(",").filter(Boolean) as BenchEngine[];
const unknown = engines.filter((e) => e !== "local" && e !== "graph-node");
if (engines.length === 0 || unknown.length) fail(`--engines takes local and/or graph-node, comma-separated, not ${values.engines}`);
const target = Number(values.target);
const timeoutMinutes = Number(values["timeout-minutes"]);
if (!(target > 0) || !(timeoutMinutes > 0)) fail(`--target and --timeout-minutes must be positive numbers`);

try {
  const scale = parseScale(values) ?? DEFAULT_SCALE;
  const bench = await benchRealSubgraph(subgraph, { source: values.source, ...(values.rev ? { rev: values.rev } : {}), scale, engines, target, timeoutMs: timeoutMinutes * 60_000, log: (line) => console.log(line) });
  console.log(formatBenchReport(bench));
  if (values.json) await writeFile(values.json, `${JSON.stringify({ ...bench, engines: bench.engines.map(({ checks, ...f }) => ({ ...f, checks: { passed: checks.filter((c) => c.ok).length, total: checks.length } })) }, null, 2)}\n`);
  process.exit(benchPassed(bench) ? 0 : 1);
} catch (error) {
  fail(error);
}
