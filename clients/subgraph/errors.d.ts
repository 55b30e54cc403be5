import { BaseError } from "subgraph-workbench/lib/errors";
/** Base of every error the subgraph clients raise. Messages never contain an access key. */
export declare class SubgraphClientError extends BaseError {
    readonly endpoint: string;
    name: string;
    constructor(message: string, endpoint: string, options?: {
        cause?: unknown;
    });
}
/** Nothing answered at the endpoint (connection refused, DNS, timeout). */
export declare class EndpointUnreachableError extends SubgraphClientError {
    name: string;
    constructor(endpoint: string, reason: string, options?: {
        cause?: unknown;
    });
}
/** The endpoint answered, but has no subgraph by that name or id. */
export declare class UnknownSubgraphError extends SubgraphClientError {
    name: string;
    constructor(endpoint: string, detail: string);
}
/** The query ran and the server answered with GraphQL errors. */
export declare class GraphQLQueryError extends SubgraphClientError {
    readonly messages: string[];
    readonly status?: number | undefined;
    name: string;
    constructor(endpoint: string, messages: string[], status?: number | undefined);
}
