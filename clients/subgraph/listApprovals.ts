import { ClientError, GraphQLClient, gql } from "graphql-request";
import { maskUrl } from "subgraph-workbench/lib/redact";
import { EndpointUnreachableError, GraphQLQueryError, SubgraphClientError, UnknownSubgraphError } from "./errors.js";

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

const APPROVALS_PAGE = gql`
  query ApprovalsPage($first: Int!, $where: ApprovalQuery_filter!) {
    approvalQueries(first: $first, where: $where, orderBy: id, orderDirection: asc) {
      id
      owner
      spender
      value
    }
  }
`;

interface PageResult {
  approvalQueries: { id: string; owner: string; spender: string; value: string }[];
}

/**
 * Lists approvals by paging with an `id_gt` cursor (stable under concurrent inserts, unlike `skip`),
 * `pageSize` at a time, until the subgraph has no more or `first` is reached.
 */
export async function listApprovals(params: ListApprovalsParameters): Promise<ListApprovalsReturnType> {
  const pageSize = Math.min(params.pageSize ?? 1000, 1000);
  const limit = params.first ?? Number.POSITIVE_INFINITY;
  if (!(limit > 0)) throw new SubgraphClientError(`first must be a positive number, got ${params.first}`, params.endpoint);
  const client = new GraphQLClient(params.endpoint, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(params.timeoutMs ?? 30_000) }),
  });
  const filter: Record<string, string> = {};
  if (params.owner) filter.owner = params.owner.toLowerCase();
  if (params.spender) filter.spender = params.spender.toLowerCase();
  if (params.minValue !== undefined) filter.value_gte = params.minValue.toString();

  const approvals: Approval[] = [];
  let cursor = "";
  while (approvals.length < limit) {
    const first = Math.min(pageSize, limit - approvals.length);
    const where = cursor ? { ...filter, id_gt: cursor } : filter;
    const page = await requestPage(client, params.endpoint, first, where);
    for (const row of page.approvalQueries) {
      approvals.push({ id: row.id, owner: row.owner, spender: row.spender, value: BigInt(row.value) });
    }
    params.onPage?.(approvals.length);
    const last = page.approvalQueries.at(-1);
    if (!last || page.approvalQueries.length < first) break;
    cursor = last.id;
  }
  return approvals;
}

async function requestPage(client: GraphQLClient, endpoint: string, first: number, where: Record<string, string>): Promise<PageResult> {
  try {
    return await client.request<PageResult>(APPROVALS_PAGE, { first, where });
  } catch (error) {
    throw classifyError(endpoint, error);
  }
}

const UNKNOWN_SUBGRAPH = /subgraph.*(not found|does not exist|unknown)|not found|no such subgraph/i;

function classifyError(endpoint: string, error: unknown): SubgraphClientError {
  if (error instanceof ClientError) {
    const status = error.response.status;
    const messages = (error.response.errors ?? []).map((e) => e.message);
    const text = messages.join("; ") || (typeof error.response.body === "string" ? error.response.body : `HTTP ${status}`);
    if (status === 404 || UNKNOWN_SUBGRAPH.test(text)) return new UnknownSubgraphError(endpoint, text);
    return new GraphQLQueryError(endpoint, messages.length > 0 ? messages : [text], status);
  }
  const cause = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (cause?.name === "TimeoutError" || cause?.name === "AbortError") return new EndpointUnreachableError(endpoint, "timed out", { cause: error });
  if (cause?.name === "TypeError" || cause?.cause?.code) {
    return new EndpointUnreachableError(endpoint, cause.cause?.code ?? cause.cause?.message ?? cause.message ?? "network error", { cause: error });
  }
  return new SubgraphClientError(`The query to ${maskUrl(endpoint)} failed: ${cause?.message ?? String(error)}`, endpoint, { cause: error });
}
