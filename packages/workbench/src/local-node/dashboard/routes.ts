// The node's own pages beside graph-node's on the query port: the dashboard at `/` for a browser
// (an Accept that prefers text/html), its files and its JSON under /_workbench/, a path graph-node does
// not serve. Every other request is left to the query server, which answers it as graph-node does.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson, sendText } from "../../lib/http/index.js";
import type { ProfileDelta } from "../indexer/index.js";
import { prefersHtml } from "./acceptsHtml.js";
import { createOverview, type DashboardSources } from "./overview.js";
import { DASHBOARD_HTML, dashboardAssets, readAsset } from "./page.js";

/** Where the dashboard's JSON lives. */
export const DASHBOARD_API = "/_workbench/api";
const OWN_PREFIX = "/_workbench/";

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
    const rest = url.pathname.startsWith(`${DASHBOARD_API}/`) ? url.pathname.slice(DASHBOARD_API.length + 1).split("/") : [];
    if (rest[0] === "overview" && rest.length === 1) {
      sendJson(res, 200, await overview(), { "Cache-Control": "no-store" });
      return true;
    }
    if (rest[0] === "profile" && rest.length === 2 && rest[1]) {
      const profile: ProfileDelta | null = sources.profile(safeDecode(rest[1]));
      if (!profile) sendJson(res, 404, { error: `no handler of deployment ${rest[1]} has run on this node` });
      else sendJson(res, 200, profile, { "Cache-Control": "no-store" });
      return true;
    }
    sendJson(res, 404, { error: `unknown dashboard path ${url.pathname}` });
    return true;
  };
}

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
