// The node's own pages beside graph-node's on the query port: the dashboard at `/` for a browser
// (Accept preferring text/html), and its JSON under /_workbench/, a path graph-node does not serve.
// Every other request is left to the query server, which answers it as graph-node does.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../../lib/http/index.js";
import type { ProfileDelta } from "../indexer/index.js";

/** Where the dashboard's JSON lives. */
export const DASHBOARD_API = "/_workbench/api";

export interface DashboardSources {
  /** A deployment's handler profile since the node started it; null when it never ran here. */
  profile(id: string): ProfileDelta | null;
}

/** Answers the dashboard's requests; false leaves the request to the query server. */
export type DashboardRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export function createDashboardRoutes(sources: DashboardSources): DashboardRoutes {
  return async (req, res, url) => {
    if (!url.pathname.startsWith(`${DASHBOARD_API}/`)) return false;
    if (req.method !== "GET") {
      sendJson(res, 405, { error: `${req.method ?? "?"} is not served here: the dashboard's API answers GET` }, { Allow: "GET" });
      return true;
    }
    const rest = url.pathname.slice(DASHBOARD_API.length + 1).split("/");
    if (rest[0] === "profile" && rest.length === 2 && rest[1]) {
      const profile = sources.profile(safeDecode(rest[1]));
      if (!profile) sendJson(res, 404, { error: `no handler of deployment ${rest[1]} has run on this node` });
      else sendJson(res, 200, profile, { "Cache-Control": "no-store" });
      return true;
    }
    sendJson(res, 404, { error: `unknown dashboard API path ${url.pathname}` });
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
