// `npm run bench:peers [-- --workload approvals|all --events 100000 --engines ours,ponder,graph-node --rounds 3
// --small --logs <dir>]`: every engine one after the other on one Hardhat chain per workload, with speed, CPU
// seconds, peak memory and the ratios against the targets (Linux: reads /proc). Engines run `--rounds`
// times, alternated, and the targets are read on the medians. Peers are installed on first use.
import { formatReport } from "./peers/report.js";
import { ENGINES, type EngineName } from "./peers/engines.js";
import { runPeersBench } from "./peers/run.js";
import { WORKLOADS } from "./peers/workloads/index.js";
import { fail, parseCli } from "subgraph-workbench/cli";
import { startChildReaper } from "subgraph-workbench/cli";

const { values } = parseCli({
  workload: { type: "string", default: "all" },
  events: { type: "string", default: "100000" },
  engines: { type: "string", default: ENGINES.join(",") },
  small: { type: "boolean", default: false },
  rounds: { type: "string", default: "3" },
  logs: { type: "string" },
});

const names = WORKLOADS.map((w) => w.name);
const workloads = values.workload === "all" ? WORKLOADS : WORKLOADS.filter((w) => w.name === values.workload);
if (!workloads.length) fail(`--workload takes ${[...names, "all"].join(", ")}, got ${values.workload}`);
const events = values.small ? 1200 : Number(values.events);
if (!Number.isInteger(events) || events < 1) fail(`--events must be a positive whole number, got ${values.events}`);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) fail(`--rounds must be a whole number from 1 to 20, got ${values.rounds}`);
const engines = values.engines.split(",").map((e) => e.trim()).filter(Boolean);
const unknown = engines.filter((e) => !ENGINES.includes(e as EngineName));
if (unknown.length || !engines.length) fail(`--engines takes a subset of ${ENGINES.join(",")}, got ${values.engines}`);
// A Ctrl-C or a kill of this process runs none of the engines' cleanup: the reaper ends what it started.
startChildReaper();
try {
  const reports: string[] = [];
  for (const workload of workloads) {
    const figures = await runPeersBench({ workload, events, engines: engines as EngineName[], rounds, log: (line) => console.log(line), ...(values.logs ? { logsDir: values.logs } : {}) });
    reports.push(formatReport(figures, workload, ENGINES.filter((e) => e !== "ours")));
  }
  console.log("");
  console.log(reports.join("\n\n"));
} catch (err) {
  fail(err);
}
