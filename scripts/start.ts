// `npm start [-- --exit] [-- --postgres] [-- --engine graph-node]`: the main job. Local chain, contracts, local node, subgraph, sample
// approvals, and the approvals listed; then serves until Ctrl-C (or exits with --exit).
import { join } from "node:path";
import { projectRoot } from "../hardhat/projectRoot.js";
import { subgraphName } from "../clients/subgraph/index.js";
import { defaultPorts, runMainJob } from "./lib/mainJob.js";
import { mappingLimitsFromEnv, queryLimitsFromEnv } from "subgraph-workbench/local-node";
import { fail, parseCli } from "subgraph-workbench/cli";
import { logStrayErrors, stopOnSignals, stopWhenOrphaned } from "subgraph-workbench/cli";
import { startChildReaper } from "subgraph-workbench/cli";

// A stray error is logged; the node and the chain keep serving. Whatever ends this process, the chain,
// the database server and graph-node it started end with it.
logStrayErrors();
startChildReaper();

const { values } = parseCli({
  exit: { type: "boolean", default: false },
  postgres: { type: "boolean", default: false },
  engine: { type: "string", default: "local" },
  approvals: { type: "string", default: "12" },
  "data-dir": { type: "string", default: process.env.DATA_DIR ?? join(projectRoot, ".data") },
  "query-port": { type: "string", default: String(defaultPorts.query) },
  "admin-port": { type: "string", default: String(defaultPorts.admin) },
  "ipfs-port": { type: "string", default: String(defaultPorts.ipfs) },
  "status-port": { type: "string", default: String(defaultPorts.status) },
  "metrics-port": { type: "string", default: "8040" },
});

function engineOption(raw: string): "local" | "graph-node" {
  if (raw === "local" || raw === "graph-node") return raw;
  fail(`--engine must be local or graph-node, got ${raw}`);
}

// The job awaits helpers that are unreferenced so that they never hold an idle process open (graph-cli's
// warm process, spare worker threads); until the job has ended, this CLI holds itself open.
const holdOpen = setInterval(() => undefined, 60_000);
try {
  const job = await runMainJob({
    ethereumRpc: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545",
    dataDir: values["data-dir"],
    postgres: values.postgres,
    engine: engineOption(values.engine),
    ports: { query: Number(values["query-port"]), admin: Number(values["admin-port"]), ipfs: Number(values["ipfs-port"]), status: Number(values["status-port"]), metrics: Number(values["metrics-port"]) },
    name: subgraphName(),
    approvals: Number(values.approvals),
    queryLimits: queryLimitsFromEnv(process.env),
    mappingLimits: mappingLimitsFromEnv(process.env),
    log: (line) => console.log(line),
  });
  if (values.exit) {
    await job.shutdown();
  } else {
    console.log("\nServing. Press Ctrl-C to stop.");
    // A second Ctrl-C exits at once, when the clean shutdown hangs.
    stopOnSignals(() => job.shutdown());
    stopWhenOrphaned(() => job.shutdown());
  }
} catch (error) {
  fail(error);
} finally {
  clearInterval(holdOpen);
}
