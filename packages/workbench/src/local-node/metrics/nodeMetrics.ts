// graph-node's Prometheus metrics, those this node can have (README.md lists which and which not), with
// graph-node's names, types, label names and buckets (read from its source at f27eb5f2: the files are
// named beside each metric). prom-client writes the exposition. What the node already keeps (the store's
// deployments, the indexer's states and handler profiles, the chain heads) is read when a scrape
// comes; what happens between scrapes (RPC requests, queries) is observed as it happens.
import { Counter, Gauge, Histogram, Registry, type Metric } from "prom-client";
import type { BlockPtr } from "../../wasm-host/index.js";
import type { BucketCounts, ProfileDelta } from "../indexer/index.js";

/** graph-node's store shard of a deployment: this node has one store, graph-node's default shard's name. */
const SHARD = "primary";

export interface MetricsDeployment {
  id: string;
  network: string;
  latestBlock: BlockPtr | null;
  health: "healthy" | "unhealthy" | "failed";
  synced: boolean;
  paused?: boolean;
}

export interface MetricsSources {
  deployments(): Promise<MetricsDeployment[]>;
  /** Whether the deployment is being indexed here now. */
  isIndexing(id: string): boolean;
  profile(id: string): ProfileDelta | null;
  chainHead(network: string): Promise<BlockPtr | null>;
}

export interface NodeMetrics {
  readonly registry: Registry;
  /** An eth RPC request's duration (`deployment` null: not made for one deployment, e.g. the status API's). */
  observeRpc(request: { deployment: string | null; method: string; provider: string; seconds: number; failed: boolean }): void;
  /** A GraphQL query's execution on the query port. */
  observeQuery(deployment: string, seconds: number, failed: boolean): void;
  /** The exposition text, and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

type Labels = Record<string, string>;

/**
 * A histogram whose buckets are counted elsewhere (the handlers' thread counts them on graph-node's
 * bounds, handlerProfile.ts): prom-client's Histogram only takes single observations, so this registers a
 * metric object of the same shape, whose values prom-client's registry writes out.
 */
function countedHistogram(registry: Registry, spec: { name: string; help: string; bounds: readonly number[]; read(): Promise<{ labels: Labels; buckets: BucketCounts }[]> }): void {
  const metric = {
    name: spec.name,
    help: spec.help,
    type: "histogram",
    aggregator: "sum",
    async get() {
      const values: { labels: Labels; value: number; metricName: string }[] = [];
      for (const { labels, buckets } of await spec.read()) {
        let cumulative = 0;
        spec.bounds.forEach((bound, i) => {
          cumulative += buckets.counts[i] ?? 0;
          values.push({ labels: { ...labels, le: String(bound) }, value: cumulative, metricName: `${spec.name}_bucket` });
        });
        values.push({ labels: { ...labels, le: "+Inf" }, value: buckets.count, metricName: `${spec.name}_bucket` });
        values.push({ labels, value: buckets.sum, metricName: `${spec.name}_sum` });
        values.push({ labels, value: buckets.count, metricName: `${spec.name}_count` });
      }
      return { name: spec.name, help: spec.help, type: "histogram", values, aggregator: "sum" };
    },
  };
  registry.registerMetric(metric as unknown as Metric);
}

/** graph-node's deployment_status values (graph/src/components/metrics/subgraph.rs). */
function statusValue(d: MetricsDeployment, indexing: boolean): number {
  if (d.health === "failed") return 4;
  return indexing ? 2 : 3;
}

export function createNodeMetrics(sources: MetricsSources): NodeMetrics {
  const registry = new Registry();
  // One read of the store per scrape, shared by the gauges that need it.
  let listing: Promise<MetricsDeployment[]> | null = null;
  const deployments = (): Promise<MetricsDeployment[]> => (listing ??= sources.deployments());
  const profiles = async (): Promise<{ d: MetricsDeployment; profile: ProfileDelta }[]> =>
    (await deployments()).flatMap((d) => {
      const profile = sources.profile(d.id);
      return profile ? [{ d, profile }] : [];
    });

  // graph/src/components/metrics/subgraph.rs: SubgraphCountMetric.
  new Gauge({
    name: "deployment_count",
    help: "Counts the number of deployments currently deployed to the graph-node.",
    registers: [registry],
    async collect() {
      this.set((await deployments()).length);
    },
  });
  new Gauge({
    name: "deployment_running_count",
    help: "Counts the number of deployments currently being indexed by the graph-node.",
    registers: [registry],
    async collect() {
      this.set((await deployments()).filter((d) => sources.isIndexing(d.id)).length);
    },
  });
  // graph/src/blockchain/block_stream.rs: BlockStreamMetrics.
  new Gauge({
    name: "deployment_head",
    help: "Tracks the most recent block number processed by a deployment",
    labelNames: ["deployment", "network", "shard"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const d of await deployments()) if (d.latestBlock) this.set({ deployment: d.id, network: d.network, shard: SHARD }, d.latestBlock.number);
    },
  });
  // graph/src/components/metrics/subgraph.rs: DeploymentStatusMetric (graph-node leaves its shard empty).
  new Gauge({
    name: "deployment_status",
    help: "Indicates the current indexing status of a deployment. Possible values: 1 - graph-node is preparing to start indexing; 2 - deployment is being indexed; 3 - indexing is stopped by request; 4 - indexing failed;",
    labelNames: ["deployment", "shard"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const d of await deployments()) this.set({ deployment: d.id, shard: "" }, statusValue(d, sources.isIndexing(d.id)));
    },
  });
  // graph/src/components/metrics/subgraph.rs: DeploymentSyncedMetric.
  new Gauge({
    name: "deployment_synced",
    help: "Indicates whether a deployment has reached the chain head or the end block since it was deployed. Possible values: 0 - deployment is not synced; 1 - deployment is synced;",
    labelNames: ["deployment", "shard"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const d of await deployments()) this.set({ deployment: d.id, shard: SHARD }, d.synced ? 1 : 0);
    },
  });
  // store/postgres/src/chain_head_listener.rs: BlockIngestorMetrics.
  new Gauge({
    name: "ethereum_chain_head_number",
    help: "Block number of the most recent block synced from Ethereum",
    labelNames: ["network"],
    registers: [registry],
    async collect() {
      this.reset();
      const networks = [...new Set((await deployments()).map((d) => d.network))];
      for (const network of networks) {
        const head = await sources.chainHead(network).catch(() => null);
        if (head) this.set({ network }, head.number);
      }
    },
  });
  // graph/src/components/metrics/subgraph.rs: blocks_processed_count counts the blocks the handlers ran for.
  new Counter({
    name: "deployment_blocks_processed_count",
    help: "Tracks the total number of blocks processed by a deployment",
    labelNames: ["deployment", "shard"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { d, profile } of await profiles()) this.inc({ deployment: d.id, shard: SHARD }, profile.blockSeconds.count);
    },
  });
  // graph/src/components/subgraph/host.rs: HostMetrics.
  countedHistogram(registry, {
    name: "deployment_handler_execution_time",
    help: "Measures the execution time for handlers",
    bounds: [0.1, 0.5, 1, 10, 100],
    read: async () => (await profiles()).flatMap(({ d, profile }) => handlerBuckets(d.id, profile)),
  });
  countedHistogram(registry, {
    name: "deployment_eth_call_execution_time",
    help: "Measures the execution time for eth_call",
    bounds: [0.1, 0.5, 1, 10, 100],
    read: async () => (await profiles()).flatMap(({ d, profile }) => profile.ethCalls.map((c) => ({ labels: { deployment: d.id, contract_name: c.contract, method: c.method }, buckets: c.seconds }))),
  });
  // graph/src/components/metrics/subgraph.rs: SubgraphInstanceMetrics.
  countedHistogram(registry, {
    name: "deployment_block_processing_duration",
    help: "Measures duration of block processing for a subgraph deployment",
    bounds: [0.05, 0.2, 0.7, 1.5, 4, 10, 60, 120, 240],
    read: async () => (await profiles()).map(({ d, profile }) => ({ labels: { deployment: d.id }, buckets: profile.blockSeconds })),
  });
  countedHistogram(registry, {
    name: "deployment_block_trigger_count",
    help: "Measures the number of triggers in each block for a subgraph deployment",
    bounds: [1, 5, 10, 20, 50],
    read: async () => (await profiles()).map(({ d, profile }) => ({ labels: { deployment: d.id }, buckets: profile.blockTriggers })),
  });
  // chain/ethereum/src/adapter.rs: ProviderEthRpcMetrics and SubgraphEthRpcMetrics (the latter a gauge of the last duration).
  const rpcDuration = new Histogram({
    name: "eth_rpc_request_duration",
    help: "Measures eth rpc request duration",
    labelNames: ["method", "provider"],
    buckets: [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6],
    registers: [registry],
  });
  const rpcErrors = new Counter({ name: "eth_rpc_errors", help: "Counts eth rpc request errors", labelNames: ["method", "provider"], registers: [registry] });
  const deploymentRpcDuration = new Gauge({
    name: "deployment_eth_rpc_request_duration",
    help: "Measures eth rpc request duration for a subgraph deployment",
    labelNames: ["deployment", "method", "provider"],
    registers: [registry],
  });
  const deploymentRpcErrors = new Counter({
    name: "deployment_eth_rpc_errors",
    help: "Counts eth rpc request errors for a subgraph deployment",
    labelNames: ["deployment", "method", "provider"],
    registers: [registry],
  });
  // graphql/src/metrics.rs: GraphQLMetrics.
  const queryTime = new Histogram({
    name: "query_execution_time",
    help: "Execution time for successful GraphQL queries",
    labelNames: ["deployment", "status"],
    buckets: [0.1, 0.5, 1, 10, 100],
    registers: [registry],
  });

  return {
    registry,
    observeRpc({ deployment, method, provider, seconds, failed }) {
      rpcDuration.observe({ method, provider }, seconds);
      if (failed) rpcErrors.inc({ method, provider });
      if (deployment === null) return;
      deploymentRpcDuration.set({ deployment, method, provider }, seconds);
      if (failed) deploymentRpcErrors.inc({ deployment, method, provider });
    },
    observeQuery(deployment, seconds, failed) {
      queryTime.observe({ deployment, status: failed ? "failed" : "success" }, seconds);
    },
    async scrape() {
      listing = null;
      try {
        return { contentType: registry.contentType, text: await registry.metrics() };
      } finally {
        listing = null;
      }
    },
  };
}

function handlerBuckets(deployment: string, profile: ProfileDelta): { labels: Labels; buckets: BucketCounts }[] {
  // graph-node labels by handler name alone: the same handler name in two data sources is one series.
  const byHandler = new Map<string, BucketCounts>();
  for (const r of profile.handlers) {
    const into = byHandler.get(r.handler);
    if (!into) byHandler.set(r.handler, { counts: [...r.seconds.counts], sum: r.seconds.sum, count: r.seconds.count });
    else {
      r.seconds.counts.forEach((c, i) => (into.counts[i] = (into.counts[i] ?? 0) + c));
      into.sum += r.seconds.sum;
      into.count += r.seconds.count;
    }
  }
  return [...byHandler].map(([handler, buckets]) => ({ labels: { deployment, handler }, buckets }));
}
