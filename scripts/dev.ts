// `npm run dev [-- --dir <subgraph folder>]`: the hot-reload dev loop (scripts/lib/dev-loop). Starts a
// chain, the token with sample approvals and the local node as `npm start` does, then builds and
// deploys a new version of the subgraph on every save, until Ctrl-C.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { projectRoot } from "../packages/workbench/src/lib/projectRoot.js";
import { subgraphName } from "../clients/subgraph/index.js";
import { defaultPorts } from "./lib/jobServices.js";
import { createDevLoop } from "../packages/workbench/src/dev-loop/index.js";
import { fail, parseCli } from "../packages/workbench/src/cli/args.js";
import { logStrayErrors, stopOnSignals, stopWhenOrphaned } from "../packages/workbench/src/cli/processGuards.js";
import { startChildReaper } from "../packages/workbench/src/cli/childReaper.js";

// A stray error is logged and the loop keeps watching; whatever ends this process ends the chain and
// the database server it started.
logStrayErrors();
startChildReaper();

const { values } = parseCli({
  dir: { type: "string", default: projectRoot },
  postgres: { type: "boolean", default: false },
  approvals: { type: "string", default: "12" },
  debounce: { type: "string", default: "150" },
  "data-dir": { type: "string", default: process.env.DATA_DIR ?? join(projectRoot, ".data") },
  "query-port": { type: "string", default: String(defaultPorts.query) },
  "admin-port": { type: "string", default: String(defaultPorts.admin) },
  "ipfs-port": { type: "string", default: String(defaultPorts.ipfs) },
  "status-port": { type: "string", default: String(defaultPorts.status) },
});

function count(flag: string, raw: string, min = 0): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${flag} must be a whole number >= ${min}, got ${raw}`);
  return n;
}

// The loop prints and polls the URLs it was given: a port picked by the system (0) would not be known.
const port = (flag: string) => count(flag, values[flag as "query-port"], 1);

const dir = resolve(values.dir);
if (!existsSync(join(dir, "subgraph.yaml"))) fail(`--dir ${dir} holds no subgraph.yaml`);

try {
  const loop = await createDevLoop({
    dir,
    name: subgraphName(),
    ethereumRpc: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545",
    dataDir: values["data-dir"],
    postgres: values.postgres,
    ports: {
      query: port("query-port"),
      admin: port("admin-port"),
      ipfs: port("ipfs-port"),
      status: port("status-port"),
    },
    approvals: count("approvals", values.approvals),
    debounceMs: count("debounce", values.debounce),
    log: (line) => console.log(line),
  });
  console.log("[dev] press Ctrl-C to stop");
  stopOnSignals(() => loop.close());
  stopWhenOrphaned(() => loop.close());
} catch (error) {
  fail(error);
}
