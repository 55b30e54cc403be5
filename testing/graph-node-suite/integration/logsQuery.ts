// graph-node's logs-query case, restated: `_logs` on a subgraph's query API (graph-node's log store):
// levels, text search, paging, `arguments`, the refusal to combine `_logs` with entity fields, field
// selection and both orders.
import { assert, asArray, at } from "../expect.js";
import type { CaseContext, IntegrationCase } from "../types.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function logs(ctx: CaseContext, query: string): Promise<{ resp: Record<string, unknown>; logs: unknown[] }> {
  const resp = await ctx.query(query);
  return { resp, logs: asArray(at(resp, "data", "_logs"), `Expected _logs to be an array (${query.replace(/\s+/g, " ").trim()}; answer ${JSON.stringify(resp).slice(0, 300)})`) };
}

function assertOrdered(entries: unknown[], direction: "asc" | "desc"): void {
  for (let i = 1; i < entries.length; i++) {
    const prev = String(at(entries[i - 1], "timestamp"));
    const curr = String(at(entries[i], "timestamp"));
    assert(direction === "asc" ? curr >= prev : curr <= prev, `Expected ${direction === "asc" ? "ascending" : "descending"} order, but ${prev} came before ${curr}`);
  }
}

export const logsQuery: IntegrationCase = {
  name: "logs-query",
  engineLimits: { "graph-node": "gnd dev takes no config file, so it has no log store: `_logs` answers \"not enabled on this indexer\" (graph-node's harness configures `[log_store] backend = \"file\"`)" },
  async test(ctx) {
    assert(ctx.subgraph.healthy, "the subgraph is healthy (assert!(subgraph.healthy))");
    await sleep(2_000);
    const all = await logs(ctx, "{ _logs(first: 100) { id timestamp level text } }");
    assert(all.logs.length > 0, "Expected to have logs, got none", all.resp);
    for (const log of (await logs(ctx, "{ _logs(level: ERROR, first: 100) { level text } }")).logs) assert(at(log, "level") === "ERROR", "Expected ERROR level", log);
    for (const log of (await logs(ctx, '{ _logs(search: "timeout", first: 100) { id text } }')).logs) {
      const text = at(log, "text");
      assert(typeof text === "string", "Expected text field to be a string", log);
      assert(text.toLowerCase().includes("timeout"), `Expected log to contain 'timeout', got: ${text}`);
    }
    const first = (await logs(ctx, "{ _logs(first: 2, skip: 0) { id } }")).logs;
    const second = (await logs(ctx, "{ _logs(first: 2, skip: 2) { id } }")).logs;
    if (first.length === 2 && second.length > 0) {
      const firstIds = first.map((l) => at(l, "id"));
      for (const l of second) assert(!firstIds.includes(at(l, "id")), `Log ID ${JSON.stringify(at(l, "id"))} appears in both pages`);
    }
    for (const log of (await logs(ctx, "{ _logs(first: 10) { text arguments { key value } } }")).logs) assert(log !== null && typeof log === "object" && "arguments" in log, "Expected arguments field to exist in log", log);
    const combined = await ctx.query("{ _logs(first: 10) { id text } triggers { id x } }");
    assert(combined.errors !== undefined, "Expected errors when combining _logs with entity queries", combined);
    const errors = asArray(combined.errors, "Expected errors to be an array");
    assert(errors.length > 0, "Expected at least one error in response");
    const message = at(errors[0], "message");
    assert(typeof message === "string", "Expected error message to be a string", errors[0]);
    assert(message.includes("_logs") && message.includes("cannot be combined"), `Expected validation error about _logs combination, got: ${message}`);
    const selected = (await logs(ctx, "{ _logs(first: 1) { id timestamp } }")).logs;
    const one = selected[0];
    if (one !== undefined && one !== null && typeof one === "object") {
      assert("id" in one, "Expected id field to be present");
      assert("timestamp" in one, "Expected timestamp field to be present");
      for (const field of ["text", "level", "subgraphId", "arguments", "meta"]) assert(!(field in one), `Expected ${field} field to NOT be present (field selection bug)`);
    }
    assertOrdered((await logs(ctx, "{ _logs(first: 10, orderDirection: asc) { id timestamp } }")).logs, "asc");
    assertOrdered((await logs(ctx, "{ _logs(first: 10, orderDirection: desc) { id timestamp } }")).logs, "desc");
  },
};
