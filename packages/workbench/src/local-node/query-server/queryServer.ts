// The query server (graph-node's port 8000): POST (and GET ?query=) on /subgraphs/name/<name> and
// /subgraphs/id/<id>; a browser GET redirects to .../graphql, which serves the bundled GraphiQL.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NodeStore } from "../store/index.js";
import { createQueryExecutor, type GraphQLRequest, type QueryExecutor, type QueryLimits } from "../graphql/index.js";
import {
  ANY_ORIGIN,
  CORS_HEADERS,
  graphiqlAssetServer,
  readGraphqlBody,
  sendGraphiqlPage,
  sendGraphqlJson,
  serve,
  type FailedRequest,
  type RunningServer,
} from "../../lib/http/index.js";

export interface QueryServerOptions {
  store: NodeStore;
  /** graph-node's GRAPH_GRAPHQL_MAX_FIRST (default 1000). */
  maxFirst?: number;
  /** graph-node's GRAPH_GRAPHQL_MAX_SKIP (default 4294967295). */
  maxSkip?: number;
  /** What one query may cost (depth, fields, tokens, time, result size); graphql's DEFAULT_QUERY_LIMITS otherwise. */
  limits?: Partial<QueryLimits>;
  /** Told about a result past the warning size. */
  warn?: (message: string) => void;
  /** 0 picks a free port. */
  port: number;
  /** Told once about each request that failed unexpectedly (a 500); never given request data. Default: stderr. */
  onError?: (error: unknown, request: FailedRequest | null) => void;
  /** The node's own pages (the dashboard), asked first: true when it answered, false leaves the request to graph-node's routes. */
  ownPages?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
  /** Told each query's execution time (graph-node's query_execution_time); `failed`: its result has errors. */
  onQuery?: (deployment: string, seconds: number, failed: boolean) => void;
}

type Target = { kind: "name"; name: string } | { kind: "id"; id: string };

export async function createQueryServer(options: QueryServerOptions): Promise<RunningServer> {
  const executor = createQueryExecutor({
    store: options.store,
    ...(options.maxFirst === undefined ? {} : { maxFirst: options.maxFirst }),
    ...(options.maxSkip === undefined ? {} : { maxSkip: options.maxSkip }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.warn === undefined ? {} : { warn: options.warn }),
  });
  const serveAsset = graphiqlAssetServer();

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const segments = pathSegments(url.pathname);
    if (segments === null) return clientError(res, "Malformed percent-encoding in the request path");
    const method = req.method ?? "GET";

    if (options.ownPages && (await options.ownPages(req, res, url))) return;
    if (method === "OPTIONS") {
      res.writeHead(200, { ...CORS_HEADERS, "Content-Type": "text/html; charset=utf-8" });
      res.end();
      return;
    }
    if (method === "GET" && segments.length === 0) {
      sendGraphqlJson(res, 200, { message: "Access deployed subgraphs by deployment ID at /subgraphs/id/<ID> or by name at /subgraphs/name/<NAME>" });
      return;
    }
    if (await serveAsset(method, url.pathname, res)) return;
    if (segments[0] !== "subgraphs") return notFound(res);
    const wantsGraphiql = segments[segments.length - 1] === "graphql";
    const targetSegments = wantsGraphiql ? segments.slice(0, -1) : segments;
    const target = parseTarget(targetSegments);
    if (method === "GET" && wantsGraphiql && (target || targetSegments.length === 1)) {
      return sendGraphiqlPage(res, `/${targetSegments.map(encodeURIComponent).join("/")}`);
    }
    if (!target) return notFound(res);
    if (method === "GET") {
      const query = url.searchParams.get("query");
      const browser = (req.headers.accept ?? "").includes("text/html");
      if (query === null || browser) {
        // As graph-node: the endpoint redirects browsers to its GraphiQL page (keeping ?query= for the
        // editor); a GET with ?query= from a program is executed.
        res.writeHead(302, { Location: `${url.pathname.replace(/\/$/, "")}/graphql${url.search}`, ...ANY_ORIGIN, "Content-Type": "text/plain; charset=utf-8" });
        res.end("Redirecting...");
        return;
      }
      if (query.trim().toLowerCase().startsWith("mutation")) return clientError(res, "Mutations are not supported");
      const variablesText = url.searchParams.get("variables");
      let variables: Record<string, unknown> | null = null;
      if (variablesText) {
        try {
          variables = JSON.parse(variablesText) as Record<string, unknown>;
        } catch {
          return clientError(res, "Invalid query variables provided");
        }
      }
      return answer(res, target, { query, variables, operationName: url.searchParams.get("operationName") });
    }
    if (method !== "POST") return notFound(res);
    if (!req.headers["content-type"]) return clientError(res, "Content-Type header is required");
    const body = await readGraphqlBody(req, res);
    if (body === null) return;
    if (body.length === 0) return clientError(res, "Body is required");
    const request = parseRequestBody(body);
    if (typeof request === "string") return clientError(res, request);
    return answer(res, target, request);
  }

  async function answer(res: ServerResponse, target: Target, request: GraphQLRequest): Promise<void> {
    const id = target.kind === "id" ? target.id : await options.store.resolveName(target.name);
    if (id === null) {
      sendGraphqlJson(res, 200, { errors: [{ message: `deployment \`${target.kind === "name" ? target.name : ""}\` does not exist` }] });
      return;
    }
    const started = performance.now();
    const result = await executor.run(id, request);
    options.onQuery?.(id, (performance.now() - started) / 1000, Array.isArray((result as { errors?: unknown }).errors));
    sendGraphqlJson(res, 200, result);
  }

  return serve(handle, { port: options.port, onError: options.onError, errorHeaders: ANY_ORIGIN, loopbackOnly: true });
}

/** The path's decoded segments, or null when one is not valid percent-encoding (`%E0%A4%A`). */
function pathSegments(pathname: string): string[] | null {
  try {
    return pathname.split("/").filter((s) => s !== "").map(decodeURIComponent);
  } catch {
    return null;
  }
}

function parseTarget(segments: string[]): Target | null {
  if (segments[0] !== "subgraphs") return null;
  if (segments[1] === "id" && segments.length === 3 && segments[2]) return { kind: "id", id: segments[2] };
  if (segments[1] === "name" && segments.length >= 3) return { kind: "name", name: segments.slice(2).join("/") };
  return null;
}

/** graph-node's request parsing; a string is the client error to answer with 400. */
export function parseRequestBody(body: Buffer): GraphQLRequest | string {
  let data: unknown;
  try {
    data = JSON.parse(body.toString("utf8"));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return "Request data is not an object";
  const obj = data as Record<string, unknown>;
  if (!("query" in obj)) return 'The "query" field is missing in request data';
  if (typeof obj.query !== "string") return 'The "query" field is not a string';
  const variables = obj.variables;
  if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables))) return "Invalid query variables provided";
  return {
    query: obj.query,
    variables: (variables as Record<string, unknown> | null | undefined) ?? null,
    operationName: typeof obj.operationName === "string" ? obj.operationName : null,
  };
}

function clientError(res: ServerResponse, message: string): void {
  sendGraphqlJson(res, 400, { error: message });
}

function notFound(res: ServerResponse): void {
  sendGraphqlJson(res, 200, { message: "Not found" });
}

export type { QueryExecutor };
