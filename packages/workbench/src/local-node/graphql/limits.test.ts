// What one query may cost: graph-node's depth rule and texts, this node's field and token bounds, the
// per-query deadline and the result size cap, through the executor over a real store (PGlite).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getIntrospectionQuery, parse, type OperationDefinitionNode } from "graphql";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { OWNER_A, TEST_SCHEMA, approval, block } from "../store/_test/fixtures.js";
import { createQueryExecutor } from "./executeQuery.js";
import { DEFAULT_QUERY_LIMITS, checkNesting, checkOperationCost, queryLimitsFromEnv } from "./limits.js";

const DEP = "QmLimitsTest";

function cost(query: string, limits = { maxDepth: 255, maxFields: 5000 }) {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === "OperationDefinition")!;
  const fragments = Object.fromEntries(doc.definitions.flatMap((d) => (d.kind === "FragmentDefinition" ? [[d.name.value, d]] : [])));
  return checkOperationCost(op.selectionSet, fragments, limits)?.message ?? null;
}

describe("query cost rules", () => {
  it("counts depth as graph-node does: each selection set is a level, a fragment's too", () => {
    // Three nested selection sets: the root's, a's and b's.
    expect(cost("{ a { b { c } } }", { maxDepth: 3, maxFields: 10 })).toBeNull();
    expect(cost("{ a { b { c { d } } } }", { maxDepth: 3, maxFields: 10 })).toBe("query has a depth that exceeds the limit of `3`");
    expect(cost("{ a { ...F } } fragment F on T { b }", { maxDepth: 2, maxFields: 10 })).toBe("query has a depth that exceeds the limit of `2`");
  });

  it("counts fields with aliases and fragment expansions, and stops at the limit of a fragment bomb", () => {
    expect(cost("{ a: x b: x c: x }", { maxDepth: 10, maxFields: 3 })).toBeNull();
    expect(cost("{ a: x b: x c: x d: x }", { maxDepth: 10, maxFields: 3 })).toMatch(/^query selects more than 3 fields/);
    // Each fragment doubles the one below: 2^20 fields if expanded; refused after the first 5,001.
    const levels = Array.from({ length: 20 }, (_, i) => `fragment F${i} on T { a: t { ...F${i + 1} } b: t { ...F${i + 1} } }`).join("\n");
    const started = Date.now();
    expect(cost(`{ ...F0 } ${levels} fragment F20 on T { x }`, { maxDepth: 255, maxFields: 5000 })).toMatch(/^query selects more than 5000 fields/);
    expect(Date.now() - started).toBeLessThan(1000);
    // A cycle is the validation's to report; the cost walk does not loop on it.
    expect(cost("{ ...A } fragment A on T { ...B } fragment B on T { ...A }")).toBeNull();
  });

  it("refuses bracket nesting the recursive parser could not take, outside strings and comments", () => {
    expect(checkNesting("{" + "a{".repeat(10_000) + "b" + "}".repeat(10_001), 255)?.message).toBe("query has a depth that exceeds the limit of `255`");
    expect(checkNesting(`{ a(where: ${"{and: [".repeat(600)}{}${"]}".repeat(600)}) { id } }`, 255)).not.toBeNull();
    expect(checkNesting(`{ a(s: "${"{".repeat(5000)}") # ${"[".repeat(5000)}\n { b } }`, 255)).toBeNull();
    expect(checkNesting(`{ a(s: """${"(".repeat(5000)} \\""" still a string""") { b } }`, 255)).toBeNull();
  });

  it("reads graph-node's variable names, and this node's, from an environment", () => {
    expect(queryLimitsFromEnv({ GRAPH_GRAPHQL_MAX_DEPTH: "10", GRAPH_GRAPHQL_QUERY_TIMEOUT: "2", GRAPH_GRAPHQL_ERROR_RESULT_SIZE: "1_000_000", LOCAL_NODE_GRAPHQL_MAX_FIELDS: "50", GRAPH_GRAPHQL_MAX_FIRST: "" })).toEqual({
      maxDepth: 10, timeoutMs: 2000, errorResultSize: 1_000_000, maxFields: 50,
    });
    expect(queryLimitsFromEnv({ GRAPH_GRAPHQL_QUERY_TIMEOUT: "0" })).toEqual({ timeoutMs: null });
    expect(() => queryLimitsFromEnv({ GRAPH_GRAPHQL_MAX_DEPTH: "ten" })).toThrow('GRAPH_GRAPHQL_MAX_DEPTH must be a whole number, got "ten"');
  });
});

describe("query limits through the executor", () => {
  let store: NodeStore;

  beforeAll(async () => {
    store = await createNodeStore({});
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const changes = Array.from({ length: 1000 }, (_, n) => {
      const a = approval(n, OWNER_A, null);
      return { op: "set" as const, entityType: "ApprovalQuery", id: a.id, data: a.data };
    });
    await store.transact(DEP, block(2), changes);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("answers 20,000 aliased collections with the field limit's error at once, without touching the store", async () => {
    let reads = 0;
    const counted = new Proxy(store, { get: (t, p, r) => (p === "queryEntities" ? (...a: Parameters<NodeStore["queryEntities"]>) => (reads++, t.queryEntities(...a)) : Reflect.get(t, p, r)) });
    const exec = createQueryExecutor({ store: counted, limits: { maxTokens: 1_000_000 } });
    const query = "{" + Array.from({ length: 20_000 }, (_, i) => `a${i}: approvalQueries(first: 1000) { id }`).join(" ") + "}";
    const started = Date.now();
    const answer = await exec.run(DEP, { query });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(answer).toEqual({ errors: [{ message: "query selects more than 5000 fields (aliases and fragment expansions included), the limit LOCAL_NODE_GRAPHQL_MAX_FIELDS sets; split it into several queries" }] });
    expect(reads).toBe(0);
  });

  it("answers 10,000-deep nesting with graph-node's depth error, and a deep query within the limit normally", async () => {
    const exec = createQueryExecutor({ store });
    const deep = "{" + "approvalQueries{".repeat(10_000) + "id" + "}".repeat(10_001);
    expect(await exec.run(DEP, { query: deep })).toEqual({ errors: [{ message: "query has a depth that exceeds the limit of `255`" }] });
    const shallow = createQueryExecutor({ store, limits: { maxDepth: 2 } });
    expect(await shallow.run(DEP, { query: "{ approvalQueries(first: 1) { id } }" })).toEqual({ data: { approvalQueries: [{ id: "0x00000000" }] } });
    expect(await shallow.run(DEP, { query: "{ approvalQueries(first: 1) { account { id } } }" })).toEqual({ errors: [{ message: "query has a depth that exceeds the limit of `2`" }] });
  });

  it("stops parsing at the token budget", async () => {
    const exec = createQueryExecutor({ store, limits: { maxTokens: 100 } });
    const answer = await exec.run(DEP, { query: `{ approvalQueries(where: { id_in: [${Array.from({ length: 100 }, (_, i) => `"${i}"`).join(", ")}] }) { id } }` });
    expect(answer).toEqual({ errors: [{ message: "query has more than 100 tokens, the limit LOCAL_NODE_GRAPHQL_MAX_TOKENS sets" }] });
    // The introspection query GraphiQL sends is well within the defaults.
    expect((await createQueryExecutor({ store }).run(DEP, { query: getIntrospectionQuery() })).errors).toBeUndefined();
  });

  it("answers graph-node's timeout error when the store is slower than GRAPH_GRAPHQL_QUERY_TIMEOUT, and reads no further root field", async () => {
    let reads = 0;
    const slow = new Proxy(store, {
      get: (t, p, r) =>
        p === "queryEntities"
          ? async (...a: Parameters<NodeStore["queryEntities"]>) => {
              reads++;
              await new Promise((resolve) => setTimeout(resolve, 400));
              return t.queryEntities(...a);
            }
          : Reflect.get(t, p, r),
    });
    const exec = createQueryExecutor({ store: slow, limits: { timeoutMs: 250 } });
    const started = Date.now();
    expect(await exec.run(DEP, { query: "{ a: approvalQueries { id } b: approvalQueries { id } c: approvalQueries { id } }" })).toEqual({ errors: [{ message: "Query timed out" }] });
    expect(Date.now() - started).toBeLessThan(400);
    expect(reads).toBe(1);
  });

  it("refuses a result past GRAPH_GRAPHQL_ERROR_RESULT_SIZE with graph-node's text, and warns past the warning size", async () => {
    const warnings: string[] = [];
    const exec = createQueryExecutor({ store, limits: { errorResultSize: 50_000, warnResultSize: 1000 }, warn: (m) => warnings.push(m) });
    const small = await exec.run(DEP, { query: "{ approvalQueries(first: 100) { id } }" });
    expect(small.errors).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^large query result: \d+ bytes of JSON from deployment QmLimitsTest$/)]);
    const big = await exec.run(DEP, { query: "{ a: approvalQueries(first: 1000) { id owner spender value } b: approvalQueries(first: 1000) { id owner } }" });
    expect(big.errors?.[0]?.message).toMatch(/^the result size of \d+ is larger than the allowed limit of 50000$/);
    expect(big.data).toBeUndefined();
  });

  it("has graph-node's defaults where graph-node has one", () => {
    expect(DEFAULT_QUERY_LIMITS).toMatchObject({ maxFirst: 1000, maxSkip: 4294967295, maxDepth: 255 });
  });
});
