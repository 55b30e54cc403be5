import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { OWNER_A, TEST_SCHEMA, account, approval, block } from "../store/_test/fixtures.js";
import { createQueryServer } from "./queryServer.js";
import type { RunningServer } from "../../lib/http/index.js";

const DEP = "QmServerTest";

describe("query server", () => {
  let store: NodeStore;
  let server: RunningServer;
  const post = (path: string, body: unknown, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
    fetch(`${server.url}${path}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });

  beforeAll(async () => {
    store = await createNodeStore({});
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const a = approval(1, OWNER_A);
    await store.transact(DEP, block(5), [
      { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
      { op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", 1n) },
    ]);
    await store.createSubgraph("me/approvals");
    await store.setPendingVersion("me/approvals", DEP, "v1");
    server = await createQueryServer({ store, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  it("listens on 127.0.0.1 and answers queries by name and by id", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const byName = await post("/subgraphs/name/me/approvals", { query: "{ approvalQueries { id owner value } }" });
    expect(byName.status).toBe(200);
    expect(byName.headers.get("content-type")).toBe("application/json");
    expect(await byName.json()).toEqual({ data: { approvalQueries: [{ id: "0x00000001", owner: OWNER_A, value: "1000000000000000000" }] } });
    const byId = await post(`/subgraphs/id/${DEP}`, { query: "query($id: ID!) { account(id: $id) { name } }", variables: { id: "alice" } });
    expect(await byId.json()).toEqual({ data: { account: { name: "Alice" } } });
    const get = await fetch(`${server.url}/subgraphs/name/me/approvals?query=${encodeURIComponent("{ _meta { block { number } } }")}`);
    expect(await get.json()).toEqual({ data: { _meta: { block: { number: 5 } } } });
  });

  it("answers graph-node's errors for unknown subgraphs and bad requests", async () => {
    expect(await (await post("/subgraphs/name/nobody/here", { query: "{ a }" })).json()).toEqual({ errors: [{ message: "deployment `nobody/here` does not exist" }] });
    const noQuery = await post("/subgraphs/name/me/approvals", { foo: 1 });
    expect(noQuery.status).toBe(400);
    expect(await noQuery.json()).toEqual({ error: 'The "query" field is missing in request data' });
    const badJson = await post("/subgraphs/name/me/approvals", "{nope");
    expect(badJson.status).toBe(400);
    // A byte body makes fetch send no Content-Type at all.
    const noType = await fetch(`${server.url}/subgraphs/name/me/approvals`, { method: "POST", body: new TextEncoder().encode('{"query":"{ a }"}') });
    expect(noType.status).toBe(400);
    expect(await noType.json()).toEqual({ error: "Content-Type header is required" });
    const unknown = await post("/subgraphs/name/me/approvals", { query: "{ foo }" });
    expect(await unknown.json()).toEqual({ errors: [{ locations: [{ line: 1, column: 3 }], message: "Type `Query` has no field `foo`" }] });
  });

  it("answers 400 with CORS headers to a body over 1 MiB", async () => {
    const res = await post("/subgraphs/name/me/approvals", "x".repeat((1 << 20) + 1));
    expect(res.status).toBe(400);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS, POST");
    expect(await res.json()).toEqual({ error: "Body is too large" });
  });

  it("redirects a browser GET to the bundled GraphiQL page and serves its assets locally", async () => {
    const redirect = await fetch(`${server.url}/subgraphs/name/me/approvals`, { redirect: "manual", headers: { Accept: "text/html" } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("/subgraphs/name/me/approvals/graphql");
    const page = await fetch(`${server.url}/subgraphs/name/me/approvals/graphql`);
    const html = await page.text();
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(html).toContain('src="/graphiql/graphiql.min.js"');
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ["/graphiql/graphiql.min.js", "/graphiql/graphiql.min.css", "/graphiql/react.production.min.js", "/graphiql/react-dom.production.min.js"]) {
      const r = await fetch(`${server.url}${asset}`);
      expect(r.status, asset).toBe(200);
      expect((await r.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
  });

  it("refuses a page from another site (403) and serves one from this machine", async () => {
    const body = { query: "{ approvalQueries { id } }" };
    expect((await post("/subgraphs/name/me/approvals", body, { "Content-Type": "application/json", Origin: "https://evil.example" })).status).toBe(403);
    const local = await post("/subgraphs/name/me/approvals", body, { "Content-Type": "application/json", Origin: "http://localhost:5173" });
    expect(local.status).toBe(200);
  });

  it("answers a path with broken percent-encoding 400 instead of failing", async () => {
    const res = await post("/subgraphs/name/me/%E0%A4%A", { query: "{ _meta { deployment } }" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Malformed percent-encoding in the request path" });
  });

  it("tells onError once, with the cause, about a request the store fails (500)", async () => {
    const seen: { error: unknown; request: unknown }[] = [];
    const broken = new Proxy(store, {
      get: (target, prop, receiver) => (prop === "resolveName" ? async () => Promise.reject(new Error("store down")) : Reflect.get(target, prop, receiver)),
    });
    const failing = await createQueryServer({ store: broken, port: 0, onError: (error, request) => seen.push({ error, request }) });
    try {
      const res = await fetch(`${failing.url}/subgraphs/name/me/approvals`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"query":"{ _meta { deployment } }"}' });
      expect(res.status).toBe(500);
      expect(seen).toEqual([{ error: new Error("store down"), request: { method: "POST", path: "/subgraphs/name/me/approvals" } }]);
    } finally {
      await failing.close();
    }
  });
});
