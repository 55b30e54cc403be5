// A deployment's handler profile as the local node serves it (its dashboard's JSON), for the commands
// that print it at the end of a catch-up: npm start and the dev loop, whose node may be their own or
// one already running. graph-node has no such endpoint: null then.
import type { ProfileTableRow } from "../lib/handlerProfileTable.js";

export async function fetchHandlerProfile(queryUrl: string, deploymentId: string): Promise<ProfileTableRow[] | null> {
  try {
    const res = await fetch(`${queryUrl.replace(/\/$/, "")}/_workbench/api/profile/${encodeURIComponent(deploymentId)}`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { handlers?: unknown };
    return Array.isArray(body.handlers) ? (body.handlers as ProfileTableRow[]) : null;
  } catch {
    return null;
  }
}
