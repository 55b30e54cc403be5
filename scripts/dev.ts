// `npm run dev [-- --dir <subgraph folder>]`: the workbench's hot-reload dev loop (subgraph-workbench's
// dev-loop) with the approval project's chain in front: it starts a chain, the token with sample approvals
// as `npm start` does, then the loop starts the local node and builds and deploys a new version of the
// subgraph on every save, until Ctrl-C.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { projectRoot } from "../hardhat/projectRoot.js";
import { subgraphName } from "../clients/subgraph/index.js";
import { ensureApprovalToken, ensureChain } from "./lib/jobServices.js";
import { sendApprovals } from "../hardhat/deploy/index.js";
import { defaultPorts } from "subgraph-workbench/node-services";
import { runDevLoop, type PreparedChain } from "subgraph-workbench/dev-loop";
import { fail, parseCli } from "subgraph-workbench/cli";
import { logStrayErrors, startChildReaper } from "subgraph-workbench/cli";

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
  "metrics-port": { type: "string", default: "8040" },
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

const ethereumRpc = process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545";
const approvals = count("approvals", values.approvals);

/** The chain (reused or started), and the token with sample approvals when the subgraph indexes it. */
async function prepare(log: (line: string) => void): Promise<PreparedChain> {
  const chain = await ensureChain(ethereumRpc, log);
  // Our token only for a subgraph that indexes it (the project's, or a copy of it); another
  // subgraph's networks.json names its own contracts.
  if (await indexesApprovalToken(dir)) {
    const token = await ensureApprovalToken(ethereumRpc, join(dir, "networks.json"), log);
    if (token.deployed && approvals > 0) {
      const sent = await sendApprovals({ rpcUrl: ethereumRpc, token: token.address, count: approvals });
      log(`sent ${sent.approvals} approvals in blocks ${sent.firstBlock}-${sent.lastBlock}`);
    }
  }
  return { reset: chain.fresh, ...(chain.started ? { close: chain.started.stop } : {}) };
}

async function indexesApprovalToken(folder: string): Promise<boolean> {
  const manifest = parse(await readFile(join(folder, "subgraph.yaml"), "utf8")) as { dataSources?: { name?: unknown }[] } | null;
  return manifest?.dataSources?.some((d) => d.name === "ApprovalToken") ?? false;
}

await runDevLoop({
  dir,
  name: subgraphName(),
  ethereumRpc,
  prepare,
  dataDir: values["data-dir"],
  postgres: values.postgres,
  ports: { query: port("query-port"), admin: port("admin-port"), ipfs: port("ipfs-port"), status: port("status-port"), metrics: port("metrics-port") },
  debounceMs: count("debounce", values.debounce),
  log: (line) => console.log(line),
});
