/** One `ApprovalQuery` entity with its value as a bigint (raw token units). */
export interface Approval {
    id: string;
    owner: string;
    spender: string;
    value: bigint;
}
export interface ListApprovalsParameters {
    /** Query address: `.../subgraphs/name/<name>` or the platform's query URL. */
    endpoint: string;
    /** At most this many approvals; all of them when omitted. */
    first?: number;
    owner?: string;
    spender?: string;
    /** Only approvals with value >= this. */
    minValue?: bigint;
    /** Page size for the `id_gt` cursor (graph-node caps `first` at 1000). */
    pageSize?: number;
    timeoutMs?: number;
    /** Called after each page with the count so far. */
    onPage?: (fetched: number) => void;
}
export type ListApprovalsReturnType = Approval[];
/**
 * Lists approvals by paging with an `id_gt` cursor (stable under concurrent inserts, unlike `skip`),
 * `pageSize` at a time, until the subgraph has no more or `first` is reached.
 */
export declare function listApprovals(params: ListApprovalsParameters): Promise<ListApprovalsReturnType>;
