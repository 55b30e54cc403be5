// `npm run bench:node-memory [-- --approvals 100000 --launch npm|node]`: peak resident memory of the
// local node's process tree while it indexes the approvals, and its indexing rate (Linux: reads /proc).
import { formatNodeMemory, runNodeMemoryBench, type NodeLaunch } from "../../packages/workbench/src/local-node/e2e/nodeMemory.bench.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  approvals: { type: "string", default: "100000" },
  launch: { type: "string", default: "npm" },
});

if (values.launch !== "npm" && values.launch !== "node") fail(`--launch must be npm or node, got ${values.launch}`);
try {
  const figure = await runNodeMemoryBench({ approvals: Number(values.approvals), launch: values.launch as NodeLaunch, log: (line) => console.log(line) });
  console.log(formatNodeMemory(figure));
} catch (err) {
  fail(err);
}
