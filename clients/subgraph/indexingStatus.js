import { GraphQLClient, gql } from "graphql-request";
import { EndpointUnreachableError, SubgraphClientError, UnknownSubgraphError } from "./errors.js";
const STATUS = gql `
  query Status($name: String!) {
    indexingStatusForCurrentVersion(subgraphName: $name) {
      subgraph
      synced
      health
      entityCount
      fatalError {
        message
        handler
        block {
          number
        }
      }
      chains {
        chainHeadBlock {
          number
        }
        latestBlock {
          number
        }
      }
    }
  }
`;
/** Reads the current version's status from the index-node API (`.../graphql` on port 8030). */
export async function getIndexingStatus(params) {
    const client = new GraphQLClient(params.statusUrl, {
        fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(params.timeoutMs ?? 10_000) }),
    });
    let result;
    try {
        result = await client.request(STATUS, { name: params.name });
    }
    catch (error) {
        const e = error;
        if (e.name === "TypeError" || e.cause?.code || e.name === "TimeoutError")
            throw new EndpointUnreachableError(params.statusUrl, e.cause?.code ?? e.message ?? "network error", { cause: error });
        throw new SubgraphClientError(`The status query failed: ${e.message ?? String(error)}`, params.statusUrl, { cause: error });
    }
    const status = result.indexingStatusForCurrentVersion;
    if (!status)
        throw new UnknownSubgraphError(params.statusUrl, `no current version of "${params.name}"`);
    const chain = status.chains[0];
    const num = (v) => (v ? Number(v.number) : null);
    return {
        subgraph: status.subgraph,
        synced: status.synced,
        health: status.health,
        entityCount: BigInt(status.entityCount),
        fatalError: status.fatalError ? { message: status.fatalError.message, handler: status.fatalError.handler, block: status.fatalError.block ? { number: Number(status.fatalError.block.number) } : null } : null,
        chainHeadBlock: num(chain?.chainHeadBlock),
        latestBlock: num(chain?.latestBlock),
    };
}
/** Polls the status API until the subgraph has indexed `block`; fails fast when the subgraph failed. */
export async function waitForBlock(params) {
    const deadline = Date.now() + (params.timeoutMs ?? 120_000);
    for (;;) {
        let status = null;
        try {
            status = await getIndexingStatus({ statusUrl: params.statusUrl, name: params.name });
        }
        catch (error) {
            // Right after a deploy the version may not be visible yet.
            if (!(error instanceof UnknownSubgraphError) || Date.now() > deadline)
                throw error;
        }
        if (status) {
            params.onProgress?.(status);
            if (status.health === "failed") {
                throw new SubgraphClientError(`Subgraph "${params.name}" failed: ${status.fatalError?.message ?? "unknown error"}`, params.statusUrl);
            }
            if ((status.latestBlock ?? -1) >= params.block)
                return status;
        }
        if (Date.now() > deadline) {
            throw new SubgraphClientError(`Subgraph "${params.name}" did not reach block ${params.block} in time (at ${status?.latestBlock ?? "nothing"})`, params.statusUrl);
        }
        await new Promise((r) => setTimeout(r, 200));
    }
}
