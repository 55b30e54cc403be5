// graph-node's admin JSON-RPC as a case drives it on both engines, and the status fields the admin
// calls change (paused, node, latest block), read the same way from both.
import type { Engine } from "./engines.js";
import { postGraphQL } from "./graphql.js";
import { callAdmin, type AdminAnswer } from "../graph-node/index.js";

/** One admin call on the engine (graph-node's JSON-RPC; the local node answers it the same way). */
export function adminCall(engine: Engine, method: string, params: Record<string, unknown>): Promise<AdminAnswer> {
  return callAdmin(engine.adminUrl, method, params);
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
