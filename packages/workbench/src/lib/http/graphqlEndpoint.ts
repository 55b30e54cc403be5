// What graph-node's GraphQL endpoints (the query and status servers) answer alike: JSON with its CORS
// headers, a request body under one cap, the GraphiQL page and its bundled assets.
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "./body.js";
import { BodyTooLargeError } from "./errors.js";
import { graphiqlAssets, graphiqlHtml } from "./graphiql.js";
import { ANY_ORIGIN, CORS_HEADERS, sendJson, sendText } from "./send.js";

/** Largest GraphQL POST body accepted (1 MiB). */
export const GRAPHQL_MAX_BODY_BYTES = 1 << 20;

/** A JSON answer with graph-node's CORS headers. */
export function sendGraphqlJson(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, CORS_HEADERS);
}

/** The request body, or null once one over the cap has been answered with 400 `{"error":"Body is too large"}`. */
export async function readGraphqlBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
  try {
    return await readBody(req, { maxBytes: GRAPHQL_MAX_BODY_BYTES });
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendGraphqlJson(res, 400, { error: "Body is too large" });
    return null;
  }
}

/** The GraphiQL page that queries `endpoint`. */
export function sendGraphiqlPage(res: ServerResponse, endpoint: string): void {
  sendText(res, 200, "text/html; charset=utf-8", graphiqlHtml(endpoint), ANY_ORIGIN);
}

/** Answers a GET for one of GraphiQL's assets (true), or leaves the request to the caller (false). */
export type GraphiqlAssetServer = (method: string, pathname: string, res: ServerResponse) => Promise<boolean>;

/** A server of GraphiQL's bundled assets under /graphiql/; each file is read once, then kept. */
export function graphiqlAssetServer(): GraphiqlAssetServer {
  const assets = graphiqlAssets();
  const cache = new Map<string, Buffer>();
  return async (method, pathname, res) => {
    const asset = method === "GET" ? assets.get(pathname) : undefined;
    if (!asset) return false;
    let body = cache.get(pathname);
    if (!body) cache.set(pathname, (body = await readFile(asset.file)));
    sendText(res, 200, asset.contentType, body, { ...ANY_ORIGIN, "Cache-Control": "public, max-age=3600" });
    return true;
  };
}
