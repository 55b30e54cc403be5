import { BaseError } from "subgraph-workbench/lib/errors";
import { maskUrl } from "subgraph-workbench/lib/redact";
/** Base of every error the subgraph clients raise. Messages never contain an access key. */
export class SubgraphClientError extends BaseError {
    endpoint;
    name = "SubgraphClientError";
    constructor(message, endpoint, options) {
        super(message, { ...options, details: { endpoint: maskUrl(endpoint) } });
        this.endpoint = endpoint;
    }
}
/** Nothing answered at the endpoint (connection refused, DNS, timeout). */
export class EndpointUnreachableError extends SubgraphClientError {
    name = "EndpointUnreachableError";
    constructor(endpoint, reason, options) {
        super(`Cannot reach the query endpoint ${maskUrl(endpoint)}: ${reason}`, endpoint, options);
    }
}
/** The endpoint answered, but has no subgraph by that name or id. */
export class UnknownSubgraphError extends SubgraphClientError {
    name = "UnknownSubgraphError";
    constructor(endpoint, detail) {
        super(`No subgraph is served at ${maskUrl(endpoint)}: ${detail}`, endpoint);
    }
}
/** The query ran and the server answered with GraphQL errors. */
export class GraphQLQueryError extends SubgraphClientError {
    messages;
    status;
    name = "GraphQLQueryError";
    constructor(endpoint, messages, status) {
        super(`The query failed at ${maskUrl(endpoint)}: ${messages.join("; ")}`, endpoint);
        this.messages = messages;
        this.status = status;
    }
}
