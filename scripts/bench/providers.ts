// `npm run bench:providers [-- --approvals 20000 --blocks 2000 --rates 0.1,0.25 --rounds 1 --seed 52]`: the
// local node's catch-up through the seeded fault proxy, clean and then with about 1 in 10 and 1 in 4
// requests faulted, one after the other; the ratios to the clean run and whether the rows were exact.
// `-- --sparse [--sparse-blocks 1000000 --sparse-events 300 --graph-node-seconds 900]`: a long chain with few
// events instead, its blocks/s and events/s and the calls the node made by method; then graph-node on it.
import { runProvidersBench, runSparseBench } from "../../packages/workbench/src/local-node/e2e/providers.bench.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  approvals: { type: "string", default: "20000" },
  blocks: { type: "string", default: "2000" },
  rates: { type: "string", default: "0.1,0.25" },
  rounds: { type: "string", default: "1" },
  seed: { type: "string", default: "52" },
  sparse: { type: "boolean", default: false },
  "sparse-blocks": { type: "string", default: "1000000" },
  "sparse-events": { type: "string", default: "300" },
  // Then graph-node on the same chain, for at most this many seconds (0: not run).
  "graph-node-seconds": { type: "string", default: "0" },
});

try {
  if (values.sparse) {
    const figure = await runSparseBench({ blocks: Number(values["sparse-blocks"]), events: Number(values["sparse-events"]), graphNodeTimeoutMs: Number(values["graph-node-seconds"]) * 1000, log: (line) => console.log(line) });
    console.log(JSON.stringify(figure, null, 2));
    if (!figure.rowsExact) fail("the rows differ from the chain's");
  } else {
    const figures = await runProvidersBench({
      approvals: Number(values.approvals),
      blocks: Number(values.blocks),
      rates: values.rates.split(",").filter(Boolean).map(Number),
      rounds: Number(values.rounds),
      seed: Number(values.seed),
      log: (line) => console.log(line),
    });
    console.log(JSON.stringify(figures, null, 2));
    if (figures.some((f) => !f.rowsExact)) fail("some run's rows differ from the chain's");
  }
} catch (err) {
  fail(err);
}
