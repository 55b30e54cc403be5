// graph-node's `query_succeeds`: the query's answer has no errors and its data equals the expected value.
import { AssertionFailed, jsonEqual } from "../expect.js";
import type { CaseContext } from "../types.js";

export async function querySucceeds(title: string, ctx: CaseContext, query: string, expected: unknown): Promise<void> {
  const resp = await ctx.query(query);
  if (resp.errors !== undefined) throw new AssertionFailed(`query for \`${title}\` returned GraphQL errors: ${JSON.stringify(resp.errors)}`);
  if (resp.data === undefined) throw new AssertionFailed(`query for \`${title}\` returned no data`);
  if (!jsonEqual(expected, resp.data)) throw new AssertionFailed(`query for \`${title}\` returned unexpected data: expected ${JSON.stringify(expected)}, returned ${JSON.stringify(resp.data)}`);
}

/** Polls the query until one of `keys` is a non-empty list (30 s), as `polling_query` does; the lists. */
export async function pollingQuery(ctx: CaseContext, query: string, keys: string[]): Promise<unknown[][]> {
  const started = Date.now();
  for (;;) {
    const resp = await ctx.query(query);
    if (resp.errors !== undefined) throw new AssertionFailed(`GraphQL errors: ${JSON.stringify(resp.errors)}`);
    const data = (resp.data ?? {}) as Record<string, unknown>;
    const values = keys.map((k) => (Array.isArray(data[k]) ? (data[k] as unknown[]) : []));
    if (values.some((v) => v.length > 0)) return values;
    if (Date.now() - started > 30_000) throw new AssertionFailed("Timed out waiting for declared calls to be indexed");
    await new Promise((r) => setTimeout(r, 100));
  }
}
