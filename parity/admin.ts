// graph-node's admin JSON-RPC as a case drives it on both engines, and the status fields the admin
// calls change (paused, node, latest block), read the same way from both.
import type { Engine } from "./engines.js";
import { postGraphQL } from "./graphql.js";

export type AdminAnswer = { result: unknown } | { error: { code: number | null; message: string } };

/** One call; a fresh connection each time, since gnd's admin server drops idle keep-alive sockets. */
export async function adminCall(engine: Engine, method: string, params: Record<string, unknown>): Promise<AdminAnswer> {
  const res = await fetch(engine.adminUrl, {
    method: "POST",
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code?: number; message?: string } };
  return body.error ? { error: { code: body.error.code ?? null, message: body.error.message ?? "" } } : { result: body.result ?? null };
}

export interface AdminStatus {
  paused: boolean | null;
  node: string | null;
  latestBlock: string | null;
  synced: boolean;
}

/** The deployment's status by id (it stays listed after its name is removed). */
export async function adminStatus(engine: Engine, deployment: string): Promise<AdminStatus | { error: string }> {
  const answer = await postGraphQL(engine.statusUrl, `query S($ids: [String!]) { s: indexingStatuses(subgraphs: $ids) { paused node synced chains { latestBlock { number } } } }`, { ids: [deployment] });
  const s = (answer.data as { s?: { paused: boolean | null; node: string | null; synced: boolean; chains: { latestBlock: { number: string } | null }[] }[] } | undefined)?.s?.[0];
  if (!s) return { error: answer.errors?.map((e) => e.message).join("; ") ?? "no status" };
  return { paused: s.paused, node: s.node, synced: s.synced, latestBlock: s.chains[0]?.latestBlock?.number ?? null };
}
