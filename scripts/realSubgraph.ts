// `npm run real-subgraph -- <name> --source <checkout> [--engine local|graph-node|both] [--rev <commit>]`:
// a real public subgraph, unchanged but for its network config, indexed on a fresh Hardhat chain over
// its protocol's npm artifacts and checked against the chain (parity/real-subgraphs/). The checkout is
// a clone of the subgraph's repository (or a bare mirror of it); it is copied to a scratch folder.
import { resolve } from "node:path";
import { formatRealSubgraphReport, readAcceptedDifferences, realSubgraphPassed, realSubgraphs, runRealSubgraph, type EngineChoice } from "../parity/index.js";
import { projectRoot } from "../lib/projectRoot.js";
import { fail, parseCli } from "./lib/args.js";

const { values, positionals } = parseCli({
  source: { type: "string" },
  engine: { type: "string", default: "both" },
  rev: { type: "string" },
});

const known = realSubgraphs();
const names = known.map((s) => `${s.name} (github.com/${s.upstream.repository})`).join(", ");
const subgraph = known.find((s) => s.name === positionals[0]);
if (!subgraph) fail(positionals[0] ? `no real subgraph named ${positionals[0]}; known: ${names}` : `name a subgraph: ${names}`);
if (!values.source) fail(`--source <dir>: a checkout of ${subgraph.upstream.repository} (git clone https://github.com/${subgraph.upstream.repository}; checks written against ${subgraph.upstream.commit})`);
const engine = values.engine as EngineChoice;
if (!["local", "graph-node", "both"].includes(engine)) fail(`--engine must be local, graph-node or both, not ${values.engine}`);

try {
  const accepted = await readAcceptedDifferences(resolve(projectRoot, "parity", "accepted-differences.json"));
  const report = await runRealSubgraph(subgraph, { source: values.source, engines: engine, accepted, ...(values.rev ? { rev: values.rev } : {}), log: (line) => console.log(line) });
  console.log(formatRealSubgraphReport(report));
  process.exit(realSubgraphPassed(report) ? 0 : 1);
} catch (error) {
  fail(error);
}
