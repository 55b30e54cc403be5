// createStatusServer: graph-node's index-node status endpoint (POST /graphql; GET /graphql redirects
// to the GraphiQL playground). Statuses are built from the store's deployment records.
import { Kind, execute, parse, type DocumentNode, type GraphQLError, type GraphQLSchema } from "graphql";
import { DEFAULT_QUERY_LIMITS, checkNesting, checkOperationCost, isTokenLimitError, tooManyTokens } from "../query-server/index.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BlockPtr, DeploymentRecord, NodeStore } from "../store/index.js";
import { parseRequestBody } from "../query-server/index.js";
import {
  ANY_ORIGIN,
  CORS_HEADERS,
  graphiqlAssetServer,
  readGraphqlBody,
  sendError,
  sendGraphiqlPage,
  sendGraphqlJson,
  sendJson,
  serve,
  type FailedRequest,
  type RunningServer,
} from "../../lib/http/index.js";
import { buildStatusSchema } from "./statusSchema.js";
import { poiResolvers, type ProofsThrough } from "./proofOfIndexing.js";
import { chainDataResolvers, type ChainReaders } from "./chainData.js";
import { entityChangesJson } from "./entityChanges.js";
import { subgraphFeatures } from "./subgraphFeatures.js";
import { checkStatusRequest } from "./statusRequest.js";

export interface StatusServerOptions {
  store: NodeStore;
  /** The chain head of a network (null when unknown). */
  chainHead(network: string): Promise<BlockPtr | null>;
  /** 0 picks a free port. */
  port: number;
  /** Told once about each request that failed unexpectedly (a 500); never given request data. Default: stderr. */
  onError?: (error: unknown, request: FailedRequest | null) => void;
  /** Brings a deployment's proof-of-indexing digests up to `block` before a proof is read (local-node/proofs). */
  proofsThrough?: ProofsThrough;
  /** The networks' JSON-RPC providers, for blockHashFromNumber, blockData and cachedEthereumCalls (none: null answers). */
  chainReaders?: ChainReaders;
  /** What `GET /providers` answers: each network's providers, their state and why (this node's own; keys masked). */
  providers?: () => unknown;
}

export interface StatusService {
  schema: GraphQLSchema;
  statusOf(d: DeploymentRecord): Promise<Record<string, unknown>>;
  root: Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
}

/** Status queries are small: a depth as graph-node's, and far fewer fields than a data query may select. */
const STATUS_LIMITS = { maxDepth: DEFAULT_QUERY_LIMITS.maxDepth, maxFields: 1000 };

const blockJson = (b: BlockPtr | null) => (b ? { hash: b.hash, number: String(b.number) } : null);
/** A chain's block in a status: graph-node writes its hash as hex without `0x` (hash_hex), where an error's block is Bytes. */
const chainBlockJson = (b: BlockPtr | null) => (b ? { hash: b.hash.replace(/^0x/i, ""), number: String(b.number) } : null);

/** The status API as graphql-js schema + root resolvers, independent of HTTP (tests use it directly). */
export function createStatusService(options: Omit<StatusServerOptions, "port" | "onError">): StatusService {
  const { store } = options;
  const schema = buildStatusSchema();

  async function statusOf(d: DeploymentRecord): Promise<Record<string, unknown>> {
    const [entityCount, head, nonFatal] = await Promise.all([
      // As of the pointer read with `d`: a commit since then must not count (graph-node keeps both in one row).
      store.entityCount(d.id, d.latestBlock?.number ?? null),
      options.chainHead(d.network).catch(() => null),
      // Only a deployment with errors has any (one query less for the healthy ones).
      d.health === "healthy" ? [] : store.nonFatalErrors(d.id),
    ]);
    let lastHealthy: BlockPtr | null = null;
    if (d.health !== "healthy" && d.firstErrorBlock !== null) {
      const n = d.firstErrorBlock - 1;
      const hash = n >= 0 ? await store.recentBlockHash(d.id, n) : null;
      lastHealthy = hash ? { number: n, hash } : null;
    }
    const fatal = d.fatalError;
    return {
      subgraph: d.id,
      synced: d.synced,
      health: d.health,
      fatalError: fatal ? { message: fatal.message, block: blockJson(fatal.block), handler: fatal.handler, deterministic: fatal.deterministic } : null,
      nonFatalErrors: nonFatal.map((e) => ({ message: e.message, block: blockJson(e.block), handler: e.handler, deterministic: e.deterministic })),
      chains: [{
        __typename: "EthereumIndexingStatus",
        network: d.network,
        chainHeadBlock: chainBlockJson(head),
        earliestBlock: { hash: "0x0", number: String(d.earliestBlock) },
        latestBlock: chainBlockJson(d.latestBlock),
        lastHealthyBlock: chainBlockJson(lastHealthy),
      }],
      entityCount: String(entityCount),
      // graph-node: an unassigned deployment (no name uses it) has no node.
      node: d.assigned ? d.nodeId : null,
      // graph-node: no assignment, no paused flag either (both live in its assignment table).
      paused: d.assigned ? d.paused : null,
      historyBlocks: d.historyBlocks,
      // A function: graphql-js calls it only when a query selects the field (one catalog query).
      subgraphSize: async () => {
        const size = await store.deploymentSize(d.id);
        return { rowEstimate: String(size.rowEstimate), tableSize: String(size.tableSize), indexSize: String(size.indexSize), toastSize: String(size.toastSize), totalSize: String(size.totalSize) };
      },
    };
  }

  async function byId(id: string | null): Promise<Record<string, unknown> | null> {
    if (id === null) return null;
    const d = await store.getDeployment(id);
    return d ? statusOf(d) : null;
  }

  async function deploymentNamed(id: string): Promise<DeploymentRecord> {
    const d = await store.getDeployment(id);
    if (!d) throw new Error(`deployment \`${id}\` does not exist`);
    return d;
  }

  const root = {
    indexingStatuses: async (args: Record<string, unknown>) => {
      // As graph-node: no list or an empty one means every deployment.
      const wanted = Array.isArray(args.subgraphs) && args.subgraphs.length > 0 ? new Set(args.subgraphs.map(String)) : null;
      const all = await store.listDeployments();
      return Promise.all(all.filter((d) => !wanted || wanted.has(d.id)).map(statusOf));
    },
    indexingStatusForCurrentVersion: async (args: Record<string, unknown>) => byId(await store.resolveName(String(args.subgraphName))),
    indexingStatusForPendingVersion: async (args: Record<string, unknown>) => byId(await store.resolvePendingName(String(args.subgraphName))),
    indexingStatusesForSubgraphName: async (args: Record<string, unknown>) => {
      const name = String(args.subgraphName);
      const ids = [await store.resolveName(name), await store.resolvePendingName(name)];
      const out = [];
      for (const id of ids) {
        const s = await byId(id);
        if (s) out.push(s);
      }
      return out;
    },
    ...poiResolvers(store, options.proofsThrough),
    subgraphFeatures: async (args: Record<string, unknown>) => {
      const d = await deploymentNamed(String(args.subgraphId));
      return subgraphFeatures(d.manifest, d.schemaSdl, d.network);
    },
    entityChangesInBlock: async (args: Record<string, unknown>) => {
      const d = await deploymentNamed(String(args.subgraphId));
      return entityChangesJson(await store.entityChangesInBlock(d.id, Number(args.blockNumber)));
    },
    ...chainDataResolvers(options.chainReaders ?? (async () => null)),
    // graph-node 0.45 resolves apiVersions (a list) only in its single-object resolver, so every call
    // answers this error and no data; its one version would be 1.0.0 (components/versions/registry.rs).
    apiVersions: async () => {
      throw new Error("Null value resolved for non-null field `apiVersions`");
    },
    version: async () => ({ version: "0.0.0-local", commit: "local" }),
  };
  return { schema, statusOf, root };
}

export async function createStatusServer(options: StatusServerOptions): Promise<RunningServer> {
  const service = createStatusService(options);
  const serveAsset = graphiqlAssetServer();

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const path = url.pathname.replace(/\/$/, "");
    if (await serveAsset(method, url.pathname, res)) return;
    if (method === "GET" && path === "/graphql") {
      res.writeHead(302, { Location: "/graphql/playground", ...ANY_ORIGIN });
      res.end();
      return;
    }
    if (method === "GET" && path === "/graphql/playground") {
      return sendGraphiqlPage(res, "/graphql");
    }
    if (method === "GET" && path === "/providers" && options.providers) {
      return sendJson(res, 200, options.providers(), ANY_ORIGIN);
    }
    if (method === "OPTIONS" && path === "/graphql") {
      res.writeHead(200, CORS_HEADERS);
      res.end();
      return;
    }
    if (method !== "POST" || path !== "/graphql") {
      sendError(res, 404, "Not found\n", ANY_ORIGIN);
      return;
    }
    const body = await readGraphqlBody(req, res);
    if (body === null) return;
    const request = parseRequestBody(body);
    if (typeof request === "string") return sendGraphqlJson(res, 400, { error: request });
    // The same bounds on the text as the query server's: no deep nesting for the recursive parser, a
    // token budget. The status schema itself is shallow and has no lists to page.
    const nested = checkNesting(request.query, DEFAULT_QUERY_LIMITS.maxDepth);
    if (nested) return sendGraphqlJson(res, 200, { errors: [nested.toJSON()] });
    let document: DocumentNode;
    try {
      document = parse(request.query, { maxTokens: DEFAULT_QUERY_LIMITS.maxTokens });
    } catch (error) {
      if (isTokenLimitError(error)) return sendGraphqlJson(res, 200, { errors: [tooManyTokens(DEFAULT_QUERY_LIMITS.maxTokens).toJSON()] });
      const e = error as GraphQLError;
      return sendGraphqlJson(res, 200, { errors: [{ ...(e.locations ? { locations: e.locations } : {}), message: e.message }] });
    }
    // Few fields before validation: graphql-js compares every pair of same-named fields (aliases).
    const fragments = Object.fromEntries(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])));
    for (const d of document.definitions) {
      const tooCostly = d.kind === Kind.OPERATION_DEFINITION ? checkOperationCost(d.selectionSet, fragments, STATUS_LIMITS) : null;
      if (tooCostly) return sendGraphqlJson(res, 200, { errors: [tooCostly.toJSON()] });
    }
    // graph-node's checks, not graphql-js's validation rules (statusRequest.ts).
    const checked = checkStatusRequest(service.schema, document, request.variables ?? null, request.operationName ?? null);
    if ("errors" in checked) return sendGraphqlJson(res, 200, { errors: checked.errors });
    const result = await execute({
      schema: service.schema,
      document,
      rootValue: service.root,
      variableValues: request.variables ?? null,
      operationName: request.operationName ?? null,
      typeResolver: (value: { __typename?: string }) => value.__typename,
    });
    sendGraphqlJson(res, 200, {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors ? { errors: result.errors.map((e) => ({ ...(e.locations ? { locations: e.locations } : {}), message: e.message })) } : {}),
    });
  }

  return serve(handle, { port: options.port, onError: options.onError, errorHeaders: ANY_ORIGIN, loopbackOnly: true });
}
