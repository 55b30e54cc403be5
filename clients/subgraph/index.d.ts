export { listApprovals, type Approval, type ListApprovalsParameters, type ListApprovalsReturnType } from "./listApprovals.js";
export { formatApprovalsTable, formatApprovalsJson } from "./formatApprovals.js";
export { SubgraphClientError, EndpointUnreachableError, UnknownSubgraphError, GraphQLQueryError } from "./errors.js";
export { subgraphName } from "./subgraphName.js";
export { getIndexingStatus, waitForBlock, type IndexingStatus, type WaitForBlockParameters } from "./indexingStatus.js";
