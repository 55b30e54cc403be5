// `npm run bench:node-memory [-- --approvals 100000 --launch npm|node]`: peak resident memory of the
// local node's process tree while it indexes the approvals, and its indexing rate (Linux: reads /proc).
// `-- --variants [all|<setting>,...] --rounds N`: the node with its process-level memory settings all on,
// each one off alone (every setting, or the ones listed) and all off, one after the other on one chain,
// as a table; `--only "a,b;c"` adds the node with only a and b on, and with only c.
import { formatNodeMemory, formatVariantTable, runNodeMemoryBench, runSettingsVariants, settingsVariants, type NodeLaunch } from "../../packages/workbench/src/local-node/e2e/nodeMemory.bench.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  approvals: { type: "string", default: "100000" },
  launch: { type: "string", default: "npm" },
  variants: { type: "string" },
  rounds: { type: "string", default: "1" },
  only: { type: "string", default: "" },
});

const approvals = Number(values.approvals);
if (!Number.isInteger(approvals) || approvals < 1) fail(`--approvals must be a whole number above 0, got ${values.approvals}`);
if (values.launch !== "npm" && values.launch !== "node") fail(`--launch must be npm or node, got ${values.launch}`);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) fail(`--rounds must be a whole number from 1 to 20, got ${values.rounds}`);
try {
  if (values.variants !== undefined) {
    if (values.launch !== "npm") fail("--variants runs the node as npm run local-node does (the settings are the compiled command's): leave --launch out");
    const variants = settingsVariants(values.variants, values.only);
    const rows = await runSettingsVariants({ approvals, rounds, variants, log: (line) => console.log(line) });
    console.log(formatVariantTable(rows));
  } else {
    const figure = await runNodeMemoryBench({ approvals, launch: values.launch as NodeLaunch, log: (line) => console.log(line) });
    console.log(formatNodeMemory(figure));
  }
} catch (err) {
  fail(err);
}
