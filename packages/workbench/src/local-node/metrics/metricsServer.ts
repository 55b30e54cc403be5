// graph-node's metrics server (server/metrics): port 8040, the Prometheus text exposition. graph-node
// answers it on every path and method; so does this one (its `/metrics` is what scrapers ask for).
import { ANY_ORIGIN, sendText, serve, type FailedRequest, type RunningServer } from "../../lib/http/index.js";
import type { NodeMetrics } from "./nodeMetrics.js";

export interface MetricsServerOptions {
  metrics: NodeMetrics;
  /** 0 picks a free port. */
  port: number;
  onError?: (error: unknown, request: FailedRequest | null) => void;
}

export function createMetricsServer(options: MetricsServerOptions): Promise<RunningServer> {
  return serve(
    async (_req, res) => {
      const { contentType, text } = await options.metrics.scrape();
      sendText(res, 200, contentType, text, ANY_ORIGIN);
    },
    { port: options.port, onError: options.onError, errorHeaders: ANY_ORIGIN, loopbackOnly: true },
  );
}
