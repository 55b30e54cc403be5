// graph-node's metrics on the node's metrics port: the exposition, parsed by a Prometheus text parser
// (parse-prometheus-text-format), has graph-node's names, types and label names (as graph-node's source
// at f27eb5f2 defines them, and as gnd 0.45 itself serves them beside the node on the same chain), and its
// numbers are what was indexed: the handlers' calls are the chain's approvals and calls, the eth_calls
// one per approval, the head the chain's, the queries those made.
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployApprovalToken, sendApprovals } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph } from "../../lib/subgraphBuild.js";
import { freePort } from "../../lib/freePort.js";
import { startGraphNodeEngine, nameDeployment } from "../../graph-node/index.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { blockNumber, chainApprovals, deployWithGraphCli, graphql, statusOf, waitForHead } from "./harness.js";

vi.setConfig({ testTimeout: 400_000, hookTimeout: 400_000 });

const FIXTURES = join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test");

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; count?: string; sum?: string; buckets?: Record<string, string> }[];
}

/** graph-node's definitions (type and label names) of the metrics this node serves, from its source. */
const GRAPH_NODE_METRICS: Record<string, { type: string; labels: string[] }> = {
  deployment_count: { type: "GAUGE", labels: [] },
  deployment_running_count: { type: "GAUGE", labels: [] },
  deployment_head: { type: "GAUGE", labels: ["deployment", "network", "shard"] },
  deployment_status: { type: "GAUGE", labels: ["deployment", "shard"] },
  deployment_synced: { type: "GAUGE", labels: ["deployment", "shard"] },
  ethereum_chain_head_number: { type: "GAUGE", labels: ["network"] },
  deployment_blocks_processed_count: { type: "COUNTER", labels: ["deployment", "shard"] },
  deployment_handler_execution_time: { type: "HISTOGRAM", labels: ["deployment", "handler"] },
  deployment_eth_call_execution_time: { type: "HISTOGRAM", labels: ["contract_name", "deployment", "method"] },
  deployment_block_processing_duration: { type: "HISTOGRAM", labels: ["deployment"] },
  deployment_block_trigger_count: { type: "HISTOGRAM", labels: ["deployment"] },
  eth_rpc_request_duration: { type: "HISTOGRAM", labels: ["method", "provider"] },
  eth_rpc_errors: { type: "COUNTER", labels: ["method", "provider"] },
  deployment_eth_rpc_request_duration: { type: "GAUGE", labels: ["deployment", "method", "provider"] },
  deployment_eth_rpc_errors: { type: "COUNTER", labels: ["deployment", "method", "provider"] },
  query_execution_time: { type: "HISTOGRAM", labels: ["deployment", "status"] },
};

/**
 * The exposition parsed into families. parse-prometheus-text-format folds a histogram's series into one
 * (it keeps the buckets and drops the other labels), so histograms are read a second time with their
 * TYPE line as untyped: each of `_bucket`, `_sum` and `_count` is then a family of its own with its labels,
 * which this puts back together by label set.
 */
async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  const text = await res.text();
  const families = new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f]));
  // A series name comes back once per run of lines: prom-client writes each label set's buckets, sum and count together.
  const series = new Map<string, Family>();
  for (const f of parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped")) as Family[]) {
    const seen = series.get(f.name);
    if (seen) seen.metrics.push(...f.metrics);
    else series.set(f.name, f);
  }
  for (const f of families.values()) {
    if (f.type !== "HISTOGRAM") continue;
    const key = (labels: Record<string, string> | undefined) => JSON.stringify(Object.entries(labels ?? {}).filter(([k]) => k !== "le").sort());
    const byLabels = new Map<string, Family["metrics"][number]>();
    for (const m of series.get(`${f.name}_count`)?.metrics ?? []) byLabels.set(key(m.labels), { ...(m.labels ? { labels: m.labels } : {}), count: m.value!, buckets: {} });
    for (const m of series.get(`${f.name}_sum`)?.metrics ?? []) byLabels.get(key(m.labels))!.sum = m.value!;
    for (const m of series.get(`${f.name}_bucket`)?.metrics ?? []) byLabels.get(key(m.labels))!.buckets![m.labels!.le!] = m.value!;
    f.metrics = [...byLabels.values()];
  }
  return families;
}

/** The label names a family's samples carry (a histogram's `le` is the parser's buckets, not a label). */
const labelNames = (f: Family): string[] => [...new Set(f.metrics.flatMap((m) => Object.keys(m.labels ?? {})))].sort();

function sample(f: Family | undefined, labels: Record<string, string>): Family["metrics"][number] {
  const found = f?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!found) throw new Error(`no ${f?.name ?? "?"} sample with ${JSON.stringify(labels)}: ${JSON.stringify(f?.metrics.map((m) => m.labels))}`);
  return found;
}

let chain: HardhatNode;
let token = "";
let startBlock = 0;
let node: LocalNode;
let id = "";
let metricsUrl = "";

beforeAll(async () => {
  chain = await startHardhatNode();
  const deployed = await deployApprovalToken({ rpcUrl: chain.url });
  token = deployed.proxy.toLowerCase();
  startBlock = deployed.startBlock;
  await sendApprovals({ rpcUrl: chain.url, token, count: 7 });
  await sendApprovals({ rpcUrl: chain.url, token, count: 24, batchSize: 8, seed: 2 });
  node = await createLocalNode({ ethereumRpc: chain.url, ports: { query: 0, admin: 0, ipfs: 0, status: 0, metrics: 0 }, log: () => {}, pollIntervalMs: 100 });
  metricsUrl = `${node.urls.metrics!}/metrics`;
  const built = await buildSubgraph({ projectDir: join(FIXTURES, "profile"), address: token, startBlock, network: "localhost" });
  id = await deployWithGraphCli(built, "e2e/metrics", node.urls);
  await waitForHead(node.urls.status, "e2e/metrics", chain.url);
});
afterAll(async () => {
  await node?.close();
  await chain?.stop();
});

describe("graph-node's metrics", () => {
  it("serves graph-node's names, types and labels, with the counts of what was indexed", async () => {
    const queries = 3;
    for (let i = 0; i < queries; i++) expect((await graphql(`${node.urls.query}/subgraphs/name/e2e/metrics`, "{ spenders(first: 5) { id approvals } }")).errors).toBeUndefined();
    const approvals = await chainApprovals(chain.url, token, startBlock);
    const head = await blockNumber(chain.url);
    const status = await statusOf(node.urls.status, "e2e/metrics");
    const families = await scrape(metricsUrl);

    for (const [name, spec] of Object.entries(GRAPH_NODE_METRICS)) {
      if (name.endsWith("_errors")) continue; // none failed: no sample, nothing to check
      const f = families.get(name);
      expect(f, name).toBeDefined();
      expect(f!.type, name).toBe(spec.type);
      expect(labelNames(f!), name).toEqual([...spec.labels].sort());
    }
    expect(Number(sample(families.get("deployment_count"), {}).value)).toBe(1);
    expect(Number(sample(families.get("deployment_running_count"), {}).value)).toBe(1);
    expect(Number(sample(families.get("deployment_head"), { deployment: id, network: "localhost", shard: "primary" }).value)).toBe(Number(status!.chains[0]!.latestBlock!.number));
    expect(Number(status!.chains[0]!.latestBlock!.number)).toBe(head);
    expect(Number(sample(families.get("ethereum_chain_head_number"), { network: "localhost" }).value)).toBe(head);
    expect(Number(sample(families.get("deployment_status"), { deployment: id }).value)).toBe(2);
    expect(Number(sample(families.get("deployment_synced"), { deployment: id }).value)).toBe(1);

    // Handlers: one call per approval, and one per approve (7) and approveMany (3) transaction.
    const handler = (name: string) => sample(families.get("deployment_handler_execution_time"), { deployment: id, handler: name });
    expect(Number(handler("handleApproval").count)).toBe(approvals.length);
    expect(Number(handler("handleApprove").count)).toBe(7);
    expect(Number(handler("handleApproveMany").count)).toBe(3);
    expect(Number(handler("handleApproval").buckets!["+Inf"])).toBe(approvals.length);
    // One allowance eth_call per approval, by the contract's name in the manifest and the method.
    expect(Number(sample(families.get("deployment_eth_call_execution_time"), { deployment: id, contract_name: "ApprovalToken", method: "allowance" }).count)).toBe(approvals.length);
    // The blocks the handlers ran for: each approval's or call's block (every transaction here has both).
    const blocks = new Set(approvals.map((a) => a.id.split("-")[0]!));
    expect(blocks.size).toBe(7 + 3);
    expect(Number(sample(families.get("deployment_blocks_processed_count"), { deployment: id }).value)).toBe(blocks.size);
    expect(Number(sample(families.get("deployment_block_trigger_count"), { deployment: id }).count)).toBe(blocks.size);
    expect(Number(sample(families.get("deployment_block_processing_duration"), { deployment: id }).count)).toBe(blocks.size);
    // The RPC requests: the provider is graph-node's label for a command-line URL; the handlers' eth_calls
    // are the deployment's.
    expect(Number(sample(families.get("eth_rpc_request_duration"), { method: "eth_getLogs", provider: "any-rpc-0" }).count)).toBeGreaterThan(0);
    expect(Number(sample(families.get("eth_rpc_request_duration"), { method: "eth_call", provider: "any-rpc-0" }).count)).toBe(approvals.length);
    expect(Number(sample(families.get("deployment_eth_rpc_request_duration"), { deployment: id, method: "eth_call", provider: "any-rpc-0" }).value)).toBeGreaterThan(0);
    expect(Number(sample(families.get("query_execution_time"), { deployment: id, status: "success" }).count)).toBe(queries);
  });

  it("names and labels its metrics as gnd 0.45 does on the same chain", async () => {
    // An event-handler subgraph gnd runs here (Hardhat has no trace_filter for call handlers).
    const built = await buildSubgraph({ projectDir: join(FIXTURES, "fork-tally"), address: token, startBlock, network: "localhost" });
    const gndMetricsPort = await freePort();
    const gnd = await startGraphNodeEngine({
      manifests: [join(built.workDir, "subgraph.yaml")],
      networks: [{ name: "localhost", url: chain.url }],
      ipfs: new URL(node.urls.ipfs).host,
      ports: { query: 0, admin: 0, status: 0, metrics: gndMetricsPort },
      env: { ETHEREUM_POLLING_INTERVAL: "200" },
    });
    try {
      await nameDeployment(gnd.urls.admin, "e2e_metrics", gnd.deployments[0]!);
      await waitForHead(gnd.urls.status.replace(/\/graphql$/, ""), "e2e_metrics", chain.url, 180_000);
      expect((await graphql(`${gnd.urls.query}/subgraphs/name/e2e_metrics`, "{ owners(first: 1) { id } }")).errors).toBeUndefined();
      const theirs = await scrape(`http://127.0.0.1:${gndMetricsPort}/metrics`);
      const ours = await scrape(metricsUrl);
      const compared: string[] = [];
      for (const [name, f] of ours) {
        const g = theirs.get(name);
        if (!g || g.metrics.length === 0 || f.metrics.length === 0) continue;
        compared.push(name);
        expect(f.type, name).toBe(g.type);
        // gnd's extra label values (its provider names, shards) aside, the label names are the same.
        expect(labelNames(f), name).toEqual(labelNames(g));
      }
      // The core of the list: gnd serves them too, and they agree.
      for (const name of ["deployment_head", "deployment_count", "deployment_handler_execution_time", "deployment_block_processing_duration", "ethereum_chain_head_number", "eth_rpc_request_duration", "deployment_eth_rpc_request_duration"]) {
        expect(compared, name).toContain(name);
      }
    } finally {
      await gnd.close();
    }
  });
});
