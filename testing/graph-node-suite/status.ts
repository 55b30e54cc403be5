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

/**
 * Until the deployment's latest block is `hash` (the served head), or it has errors: the fixture's
 * `start_and_sync_to(stop_block)`. The status API's `synced` alone comes within 10 blocks of the head.
 */
export async function waitForHead(statusUrl: string, deployment: string, hash: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = "";
  for (;;) {
    const answer = await postGraphql(statusUrl, `query h($d: String!) { indexingStatuses(subgraphs: [$d]) { health chains { latestBlock { number hash } } } }`, { d: deployment }).catch(() => null);
    const status = (answer?.data as { indexingStatuses?: { health: string; chains: { latestBlock: { number: string; hash: string } | null }[] }[] } | undefined)?.indexingStatuses?.[0];
    const latest = status?.chains[0]?.latestBlock;
    // graph-node's status API writes hashes without the 0x.
    // A deployment with errors stays where graph-node's rules leave it (a failed one at its error, an
    // unhealthy one may pause at a non-fatal error's block during its first sync): the harness asks it there.
    if ((status && status.health !== "healthy") || (latest && latest.hash.replace(/^0x/, "") === hash.replace(/^0x/, ""))) return;
    seen = latest ? `block ${latest.number} (${latest.hash})` : "no block";
    if (Date.now() > deadline) throw new Error(`the deployment never reached the chain's head ${hash} (within ${timeoutMs / 1000} s; at ${seen})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The chain's newest block hash, asked of the chain itself. */
export async function chainHeadHash(chainUrl: string): Promise<string> {
  const res = await fetch(chainUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest", false] }) });
  const body = (await res.json()) as { result?: { hash?: string } };
  if (!body.result?.hash) throw new Error(`the chain at ${chainUrl} answered no latest block: ${JSON.stringify(body).slice(0, 300)}`);
  return body.result.hash;
}
