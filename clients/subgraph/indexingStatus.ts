import { GraphQLClient, gql } from "graphql-request";
import { EndpointUnreachableError, SubgraphClientError, UnknownSubgraphError } from "./errors.js";

/** What graph-node's index-node status API says of a subgraph's current version. */
export interface IndexingStatus {
  subgraph: string;
  synced: boolean;
  health: "healthy" | "unhealthy" | "failed";
  fatalError: { message: string; handler: string | null; block: { number: number } | null } | null;
  chainHeadBlock: number | null;
  latestBlock: number | null;
  entityCount: bigint;
}

const STATUS = gql`
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

interface StatusResult {
  indexingStatusForCurrentVersion: null | {
    subgraph: string;
    synced: boolean;
    health: IndexingStatus["health"];
    entityCount: string;
    fatalError: { message: string; handler: string | null; block: { number: string | number } | null } | null;
    chains: { chainHeadBlock: { number: string | number } | null; latestBlock: { number: string | number } | null }[];
  };
}

/** Reads the current version's status from the index-node API (`.../graphql` on port 8030). */
export async function getIndexingStatus(params: { statusUrl: string; name: string; timeoutMs?: number }): Promise<IndexingStatus> {
  const client = new GraphQLClient(params.statusUrl, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(params.timeoutMs ?? 10_000) }),
  });
  let result: StatusResult;
  try {
    result = await client.request<StatusResult>(STATUS, { name: params.name });
  } catch (error) {
    const e = error as { name?: string; message?: string; cause?: { code?: string } };
    if (e.name === "TypeError" || e.cause?.code || e.name === "TimeoutError") throw new EndpointUnreachableError(params.statusUrl, e.cause?.code ?? e.message ?? "network error", { cause: error });
    throw new SubgraphClientError(`The status query failed: ${e.message ?? String(error)}`, params.statusUrl, { cause: error });
  }
  const status = result.indexingStatusForCurrentVersion;
  if (!status) throw new UnknownSubgraphError(params.statusUrl, `no current version of "${params.name}"`);
  const chain = status.chains[0];
  const num = (v: { number: string | number } | null | undefined) => (v ? Number(v.number) : null);
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

export interface WaitForBlockParameters {
  statusUrl: string;
  name: string;
  /** Wait until the subgraph has indexed at least this block. */
  block: number;
  timeoutMs?: number;
  onProgress?: (status: IndexingStatus) => void;
}

/** Polls the status API until the subgraph has indexed `block`; fails fast when the subgraph failed. */
export async function waitForBlock(params: WaitForBlockParameters): Promise<IndexingStatus> {
  const deadline = Date.now() + (params.timeoutMs ?? 120_000);
  for (;;) {
    let status: IndexingStatus | null = null;
    try {
      status = await getIndexingStatus({ statusUrl: params.statusUrl, name: params.name });
    } catch (error) {
      // Right after a deploy the version may not be visible yet.
      if (!(error instanceof UnknownSubgraphError) || Date.now() > deadline) throw error;
    }
    if (status) {
      params.onProgress?.(status);
      if (status.health === "failed") {
        throw new SubgraphClientError(`Subgraph "${params.name}" failed: ${status.fatalError?.message ?? "unknown error"}`, params.statusUrl);
      }
      if ((status.latestBlock ?? -1) >= params.block) return status;
    }
    if (Date.now() > deadline) {
      throw new SubgraphClientError(`Subgraph "${params.name}" did not reach block ${params.block} in time (at ${status?.latestBlock ?? "nothing"})`, params.statusUrl);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
