import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { TEST_SCHEMA, account, block } from "../store/_test/fixtures.js";
import type { RunningServer } from "../../lib/http/index.js";
import { createStatusServer } from "./statusServer.js";

const OK = "QmStatusOk";
const BAD = "QmStatusFailed";
const FIELDS = `subgraph synced health entityCount node paused
  fatalError { message block { number hash } handler deterministic } nonFatalErrors { message }
  chains { network chainHeadBlock { number hash } earliestBlock { number } latestBlock { number hash } lastHealthyBlock { number } }`;

describe("status server", () => {
  let store: NodeStore;
  let server: RunningServer;
  const query = async (q: string) =>
    (await fetch(`${server.url}/graphql`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: q }) })).json() as Promise<{ data?: Record<string, unknown>; errors?: unknown[] }>;

  beforeAll(async () => {
    store = await createNodeStore({});
    for (const id of [OK, BAD]) await store.createDeployment({ id, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await store.transact(OK, block(3), [
      { op: "set", entityType: "Account", id: "a", data: account("a", "A", 1n) },
      { op: "set", entityType: "Account", id: "b", data: account("b", "B", 2n) },
    ]);
    await store.setSynced(OK, true);
    await store.transact(BAD, block(2), []);
    await store.markFailed(BAD, { message: "Mapping aborted at x.ts, line 3: boom", block: block(3), handler: "handleApproval", deterministic: true });
    await store.createSubgraph("me/ok");
    await store.setPendingVersion("me/ok", OK, null);
    await store.createSubgraph("me/bad");
    await store.setPendingVersion("me/bad", BAD, null);
    server = await createStatusServer({ store, port: 0, chainHead: async () => block(10) });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  it("reports a healthy synced deployment by subgraph name", async () => {
    const r = await query(`{ indexingStatusForCurrentVersion(subgraphName: "me/ok") { ${FIELDS} } }`);
    expect(r).toEqual({ data: { indexingStatusForCurrentVersion: {
      subgraph: OK, synced: true, health: "healthy", entityCount: "2", node: "default", paused: false, fatalError: null, nonFatalErrors: [],
      chains: [{ network: "localhost", chainHeadBlock: { number: "10", hash: block(10).hash.slice(2) }, earliestBlock: { number: "0" }, latestBlock: { number: "3", hash: block(3).hash.slice(2) }, lastHealthyBlock: null }],
    } } });
  });

  it("reports a failed deployment with its fatal error, and filters by deployment id", async () => {
    const r = await query(`{ indexingStatuses(subgraphs: ["${BAD}"]) { ${FIELDS} } }`);
    expect(r.data?.indexingStatuses).toEqual([{
      subgraph: BAD, synced: false, health: "failed", entityCount: "0", node: "default", paused: false, nonFatalErrors: [],
      fatalError: { message: "Mapping aborted at x.ts, line 3: boom", block: { number: "3", hash: block(3).hash }, handler: "handleApproval", deterministic: true },
      chains: [{ network: "localhost", chainHeadBlock: { number: "10", hash: block(10).hash.slice(2) }, earliestBlock: { number: "0" }, latestBlock: { number: "3", hash: block(3).hash.slice(2) }, lastHealthyBlock: { number: "2" } }],
    }]);
    const all = await query("{ indexingStatuses { subgraph } }");
    expect(all.data?.indexingStatuses).toEqual([{ subgraph: OK }, { subgraph: BAD }]);
    expect((await query("{ indexingStatuses(subgraphs: []) { subgraph } }")).data?.indexingStatuses).toEqual([{ subgraph: OK }, { subgraph: BAD }]);
    expect((await query('{ indexingStatusesForSubgraphName(subgraphName: "me/ok") { subgraph } }')).data?.indexingStatusesForSubgraphName).toEqual([{ subgraph: OK }]);
    expect((await query('{ indexingStatusForPendingVersion(subgraphName: "me/ok") { subgraph } }')).data).toEqual({ indexingStatusForPendingVersion: null });
    expect((await query("{ nope }")).errors).toBeDefined();
  });

  it("answers 400 to a body over 1 MiB and a plain-text 404 elsewhere", async () => {
    const big = await fetch(`${server.url}/graphql`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "x".repeat((1 << 20) + 1) });
    expect(big.status).toBe(400);
    expect(big.headers.get("access-control-allow-origin")).toBe("*");
    expect(await big.json()).toEqual({ error: "Body is too large" });
    const missing = await fetch(`${server.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await missing.text()).toBe("Not found\n");
  });

  it("listens on 127.0.0.1 and serves its GraphiQL playground from the node", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const redirect = await fetch(`${server.url}/graphql`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("/graphql/playground");
    const html = await (await fetch(`${server.url}/graphql/playground`)).text();
    expect(html).toContain('src="/graphiql/graphiql.min.js"');
    expect((await fetch(`${server.url}/graphiql/graphiql.min.css`)).status).toBe(200);
  });

  it("refuses a page from another site (403), and tells onError about a failing store (500)", async () => {
    const foreign = await fetch(`${server.url}/graphql`, { method: "POST", headers: { "Content-Type": "application/json", Origin: "https://evil.example" }, body: '{"query":"{ version { version } }"}' });
    expect(foreign.status).toBe(403);
    const seen: unknown[] = [];
    const broken = new Proxy(store, { get: (target, prop, receiver) => (prop === "listDeployments" ? async () => Promise.reject(new Error("store down")) : Reflect.get(target, prop, receiver)) });
    const failing = await createStatusServer({ store: broken, port: 0, chainHead: async () => null, onError: (error) => seen.push(error) });
    try {
      // graphql-js turns a resolver's throw into an error in the answer, not a 500.
      const answer = (await (await fetch(`${failing.url}/graphql`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"query":"{ indexingStatuses { subgraph } }"}' })).json()) as { errors?: { message: string }[] };
      expect(answer.errors?.[0]?.message).toBe("store down");
      expect(seen).toEqual([]);
    } finally {
      await failing.close();
    }
  });

  it("bounds a query's nesting, tokens and fields before graphql-js parses or validates it", async () => {
    const deep = await query("{" + "indexingStatuses{".repeat(10_000) + "subgraph" + "}".repeat(10_001));
    expect(deep).toEqual({ errors: [{ message: "query has a depth that exceeds the limit of `255`" }] });
    const started = Date.now();
    const aliases = await query("{" + Array.from({ length: 4000 }, (_, i) => `a${i}: version { version }`).join(" ") + "}");
    expect(aliases.errors?.[0]).toEqual({ message: expect.stringMatching(/^query selects more than 1000 fields/) });
    expect(Date.now() - started).toBeLessThan(5000);
    const tokens = await query("{" + Array.from({ length: 20_000 }, (_, i) => `a${i}: version { version }`).join(" ") + "}");
    expect(tokens).toEqual({ errors: [{ message: "query has more than 50000 tokens, the limit LOCAL_NODE_GRAPHQL_MAX_TOKENS sets" }] });
    expect(await query("{ version { version } }")).toEqual({ data: { version: { version: "0.0.0-local" } } });
  });
});

