// graph-node's Prometheus metrics on its metrics port (8040): the registry, its server, the RPC timing.
export { createNodeMetrics, type MetricsDeployment, type MetricsSources, type NodeMetrics } from "./nodeMetrics.js";
export { createMetricsServer, type MetricsServerOptions } from "./metricsServer.js";
export { timedRpc, type TimedRpcOptions } from "./timedRpc.js";
