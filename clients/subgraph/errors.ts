import { BaseError } from "subgraph-workbench/lib/errors";
import { maskUrl } from "subgraph-workbench/lib/redact";

/** Base of every error the subgraph clients raise. Messages never contain an access key. */
export class SubgraphClientError extends BaseError {
  override name = "SubgraphClientError";
  constructor(
    message: string,
    readonly endpoint: string,
    options?: { cause?: unknown },
  ) {
    super(message, { ...options, details: { endpoint: maskUrl(endpoint) } });
  }
}

/** Nothing answered at the endpoint (connection refused, DNS, timeout). */
export class EndpointUnreachableError extends SubgraphClientError {
  override name = "EndpointUnreachableError";
  constructor(endpoint: string, reason: string, options?: { cause?: unknown }) {
    super(`Cannot reach the query endpoint ${maskUrl(endpoint)}: ${reason}`, endpoint, options);
  }
}

/** The endpoint answered, but has no subgraph by that name or id. */
export class UnknownSubgraphError extends SubgraphClientError {
  override name = "UnknownSubgraphError";
  constructor(endpoint: string, detail: string) {
    super(`No subgraph is served at ${maskUrl(endpoint)}: ${detail}`, endpoint);
  }
}

/** The query ran and the server answered with GraphQL errors. */
export class GraphQLQueryError extends SubgraphClientError {
  override name = "GraphQLQueryError";
  constructor(
    endpoint: string,
    readonly messages: string[],
    readonly status?: number,
  ) {
    super(`The query failed at ${maskUrl(endpoint)}: ${messages.join("; ")}`, endpoint);
  }
}
