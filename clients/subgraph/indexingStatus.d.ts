/** What graph-node's index-node status API says of a subgraph's current version. */
export interface IndexingStatus {
    subgraph: string;
    synced: boolean;
    health: "healthy" | "unhealthy" | "failed";
    fatalError: {
        message: string;
        handler: string | null;
        block: {
            number: number;
        } | null;
    } | null;
    chainHeadBlock: number | null;
    latestBlock: number | null;
    entityCount: bigint;
}
/** Reads the current version's status from the index-node API (`.../graphql` on port 8030). */
export declare function getIndexingStatus(params: {
    statusUrl: string;
    name: string;
    timeoutMs?: number;
}): Promise<IndexingStatus>;
export interface WaitForBlockParameters {
    statusUrl: string;
    name: string;
    /** Wait until the subgraph has indexed at least this block. */
    block: number;
    timeoutMs?: number;
    onProgress?: (status: IndexingStatus) => void;
}
/** Polls the status API until the subgraph has indexed `block`; fails fast when the subgraph failed. */
export declare function waitForBlock(params: WaitForBlockParameters): Promise<IndexingStatus>;
