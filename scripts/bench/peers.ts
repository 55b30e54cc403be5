// `npm run bench:peers [-- --events 100000 --engines ours,ponder,graph-node --rounds 3 --small --logs <dir>]`: ours,
// Ponder and graph-node one after the other on one Hardhat chain, with speed, CPU seconds, peak memory and
// the ratios against issue 18's targets (Linux: reads /proc). Ours and Ponder run `--rounds` times,
// alternated, and the targets are read on the medians. Ponder is installed on first use.
import { formatReport, ENGINES, type EngineName } from "./peers/report.js";
import { runPeersBench } from "./peers/run.js";
import { fail, parseCli } from "subgraph-workbench/cli";
import { startChildReaper } from "subgraph-workbench/cli";

const { values } = parseCli({
  events: { type: "string", default: "100000" },
  engines: { type: "string", default: ENGINES.join(",") },
  small: { type: "boolean", default: false },
  rounds: { type: "string", default: "3" },
  logs: { type: "string" },
});

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
  const figures = await runPeersBench({ events, engines: engines as EngineName[], rounds, log: (line) => console.log(line), ...(values.logs ? { logsDir: values.logs } : {}) });
  console.log("");
  console.log(formatReport(figures));
} catch (err) {
  fail(err);
}
