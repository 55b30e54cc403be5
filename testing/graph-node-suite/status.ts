// The harness's view of a deployment (tests/src/subgraph.rs `status`/`wait_ready`): the status API's
// answer for a subgraph name, polled until the deployment has synced or failed.
import type { SuiteSubgraph } from "./types.js";

export async function postGraphql(url: string, query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { errors: [{ message: `HTTP ${res.status}, not JSON: ${text.slice(0, 300)}` }] };
  }
}

export async function subgraphStatus(statusUrl: string, name: string): Promise<SuiteSubgraph | null> {
  const body = await postGraphql(statusUrl, `query { status: indexingStatusesForSubgraphName(subgraphName: "${name}") { subgraph health synced } }`);
  const list = (body.data as { status?: { subgraph: string; health: string; synced: boolean }[] } | undefined)?.status;
  const first = list?.[0];
  if (!first) return null;
  return { name, deployment: first.subgraph, synced: first.synced, healthy: first.health === "healthy" };
}

/** Until synced or not healthy (the harness polls every 2 s for up to 600 s). */
export async function waitReady(statusUrl: string, name: string, timeoutMs: number): Promise<SuiteSubgraph> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await subgraphStatus(statusUrl, name).catch(() => null);
    if (status && (status.synced || !status.healthy)) return status;
    if (Date.now() > deadline) throw new Error(`Subgraph ${name} never synced or failed (within ${timeoutMs / 1000} s)`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
