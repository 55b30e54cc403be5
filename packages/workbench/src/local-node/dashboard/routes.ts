// The node's own pages beside graph-node's on the query port: the dashboard at `/` for a browser
// (an Accept that prefers text/html), its files and its JSON under /_workbench/, a path graph-node does
// not serve. Every other request is left to the query server, which answers it as graph-node does.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLargeError, readText, sendJson, sendText } from "../../lib/http/index.js";
import type { ProfileDelta } from "../indexer/index.js";
import { prefersHtml } from "./acceptsHtml.js";
import { createOverview, type DashboardSources } from "./overview.js";
import { DASHBOARD_HTML, dashboardAssets, readAsset } from "./page.js";

/** Where the dashboard's JSON lives. */
export const DASHBOARD_API = "/_workbench/api";
const OWN_PREFIX = "/_workbench/";
/** A mapping's source map runs to a few MiB; a body beyond this is no source map of a mapping. */
const SOURCE_MAP_MAX_BYTES = 64 * 2 ** 20;

/** Answers the dashboard's requests; false leaves the request to the query server. */
export type DashboardRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export function createDashboardRoutes(sources: DashboardSources): DashboardRoutes {
  const overview = createOverview(sources);
  const assets = dashboardAssets();
  const cache = new Map<string, Buffer>();
  return async (req, res, url) => {
    const method = req.method ?? "GET";
    if (url.pathname === "/" && method === "GET" && prefersHtml(req.headers.accept)) {
      sendText(res, 200, "text/html; charset=utf-8", DASHBOARD_HTML, { "Cache-Control": "no-store" });
      return true;
    }
    if (!url.pathname.startsWith(OWN_PREFIX)) return false;
    const rest = url.pathname.startsWith(`${DASHBOARD_API}/`) ? url.pathname.slice(DASHBOARD_API.length + 1).split("/").map(safeDecode) : [];
    // POST /_workbench/api/source-map/<deployment>/<data source>: the body is the mapping's source map.
    if (rest[0] === "source-map" && rest.length === 3 && rest[1] && rest[2]) {
      if (method !== "POST") {
        sendJson(res, 405, { error: `${method} is not served here: a source map is POSTed` }, { Allow: "POST" });
        return true;
      }
      await registerSourceMap(sources, req, res, rest[1], rest[2]);
      return true;
    }
    if (method !== "GET") {
      sendJson(res, 405, { error: `${method} is not served here: the dashboard answers GET` }, { Allow: "GET" });
      return true;
    }
    const asset = assets.get(url.pathname);
    if (asset) {
      let body = cache.get(url.pathname);
      if (!body) cache.set(url.pathname, (body = await readAsset(asset)));
      sendText(res, 200, asset.contentType, body, { "Cache-Control": "public, max-age=3600" });
      return true;
    }
    if (rest[0] === "overview" && rest.length === 1) {
      sendJson(res, 200, await overview(), { "Cache-Control": "no-store" });
      return true;
    }
    if (rest[0] === "profile" && rest.length === 2 && rest[1]) {
      const profile: ProfileDelta | null = sources.profile(rest[1]);
      if (!profile) sendJson(res, 404, { error: `no handler of deployment ${rest[1]} has run on this node` });
      else sendJson(res, 200, profile, { "Cache-Control": "no-store" });
      return true;
    }
    if (rest[0] === "trap" && rest.length === 2 && rest[1]) {
      const trap = sources.trap?.(rest[1]) ?? null;
      if (!trap) sendJson(res, 404, { error: `deployment ${rest[1]} has no failure in its mapping on this node` });
      else sendJson(res, 200, { ...trap, location: sources.failureLocation?.(rest[1]) ?? null }, { "Cache-Control": "no-store" });
      return true;
    }
    sendJson(res, 404, { error: `unknown dashboard path ${url.pathname}` });
    return true;
  };
}

async function registerSourceMap(sources: DashboardSources, req: IncomingMessage, res: ServerResponse, deployment: string, dataSource: string): Promise<void> {
  if (!sources.registerSourceMap) {
    sendJson(res, 404, { error: "this node keeps no source maps" });
    return;
  }
  let text: string;
  try {
    text = await readText(req, { maxBytes: SOURCE_MAP_MAX_BYTES });
  } catch (error) {
    if (error instanceof BodyTooLargeError) req.resume();
    sendJson(res, error instanceof BodyTooLargeError ? 413 : 400, { error: `the source map could not be read: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  try {
    sources.registerSourceMap(deployment, dataSource, text);
  } catch (error) {
    sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) });
    return;
  }
  sendJson(res, 200, { deployment, dataSource, location: sources.failureLocation?.(deployment) ?? null });
}

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
