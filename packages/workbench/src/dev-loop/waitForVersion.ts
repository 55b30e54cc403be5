// Waits until the subgraph's name serves a deployment on fully re-indexed data: a query by name
// (`/subgraphs/name/<name>`, the URL GraphiQL uses) answers with `_meta.deployment` equal to it and
// `_meta.block` at or past the chain head of the deploy. The node switches the name only once the new
// version has synced, so until then the last good version keeps answering.
import { BaseError } from "../lib/errors.js";

export interface WaitForVersionParameters {
  queryUrl: string;
  statusUrl: string;
  deploymentId: string;
  /** The chain head when the version was deployed. */
  head: number;
  timeoutMs?: number;
  /** Polled between tries: true ends the wait early (a newer save). */
  superseded?: () => Promise<boolean>;
}

/** The new version failed while indexing (a handler aborted, say). */
export class DevIndexingError extends BaseError {
  override name = "DevIndexingError";
}

export type WaitForVersionResult = { kind: "serving"; block: number; at: number } | { kind: "superseded" };

export async function waitForVersion(params: WaitForVersionParameters): Promise<WaitForVersionResult> {
  const deadline = Date.now() + (params.timeoutMs ?? 600_000);
  for (;;) {
    const meta = await graphql<{ _meta: { deployment: string; block: { number: number } } | null }>(params.queryUrl, "{ _meta { deployment block { number } } }");
    const served = meta?._meta;
    if (served && served.deployment === params.deploymentId && served.block.number >= params.head) {
      return { kind: "serving", block: served.block.number, at: Date.now() };
    }
    const status = await graphql<{ indexingStatuses: { health: string; fatalError: { message: string } | null }[] }>(
      params.statusUrl,
      `{ indexingStatuses(subgraphs: ["${params.deploymentId}"]) { health fatalError { message } } }`,
    );
    const failed = status?.indexingStatuses.find((s) => s.health === "failed");
    if (failed) throw new DevIndexingError(`the new version failed while indexing: ${failed.fatalError?.message ?? "no message"}`, { deterministic: true });
    if (await params.superseded?.()) return { kind: "superseded" };
    if (Date.now() > deadline) throw new DevIndexingError(`the new version did not serve block ${params.head} within ${Math.round((params.timeoutMs ?? 600_000) / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The data of a GraphQL answer, or null when the server did not answer or answered errors only. */
async function graphql<T>(url: string, query: string): Promise<T | null> {
  try {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }), signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as { data?: T | null };
    return body.data ?? null;
  } catch {
    return null;
  }
}
