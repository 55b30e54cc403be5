import type { Approval } from "./listApprovals.js";
/** A plain-text table: id, owner, spender and value in raw units; `maxRows` cuts long listings short. */
export declare function formatApprovalsTable(approvals: readonly Approval[], options?: {
    maxRows?: number;
}): string;
/** One JSON array; values as decimal strings, since JSON has no bigint. */
export declare function formatApprovalsJson(approvals: readonly Approval[]): string;
