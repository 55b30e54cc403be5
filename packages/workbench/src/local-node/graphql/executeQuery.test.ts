import { afterAll, beforeAll, expect, it } from "vitest";
import { getIntrospectionQuery } from "graphql";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import type { TestBackend } from "../store/testDatabase.js";
import { describeBackends } from "../store/_test/backends.js";
import { OWNER_A, OWNER_B, TEST_SCHEMA, account, approval, block } from "../store/_test/fixtures.js";
import { createQueryExecutor, type QueryExecutor } from "./executeQuery.js";
import type { StoreValue } from "../../wasm-host/values/storeValue.js";

const DEP = "QmQueryTest";
const FAILED = "QmFailedTest";

describeBackends("GraphQL queries", (makeBackend) => {
  let backend: TestBackend;
  let store: NodeStore;
  let exec: QueryExecutor;
  const q = (query: string, variables?: Record<string, unknown>, id = DEP) => exec.run(id, { query, variables: variables ?? null });

  beforeAll(async () => {
    backend = await makeBackend();
    store = await createNodeStore(backend.options);
    exec = createQueryExecutor({ store });
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await store.transact(DEP, block(1), [
      { op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", 10n, { tags: { kind: "Array", value: [{ kind: "String", value: "Red" }] }, count: { kind: "Int", value: 3 } }) },
      { op: "set", entityType: "Account", id: "bob", data: account("bob", "Bobby", 20n) },
    ]);
    // 1100 approvals over blocks 2..12: owners alternate, every third one linked to alice.
    for (let b = 2; b <= 12; b++) {
      const changes = [];
      for (let i = 0; i < 100; i++) {
        const n = (b - 2) * 100 + i;
        const a = approval(n, n % 2 === 0 ? OWNER_A : OWNER_B, n % 3 === 0 ? "alice" : null);
        changes.push({ op: "set" as const, entityType: "ApprovalQuery", id: a.id, data: a.data });
      }
      await store.transact(DEP, { ...block(b), timestamp: 1000 + b, parentHash: block(b - 1).hash }, changes);
    }
    await store.transact(DEP, block(13), [{ op: "set", entityType: "Account", id: "bob", data: account("bob", "Bobby", 25n) }]);
    // Synced: attribute indexes exist, so filters run through them here (FAILED runs without).
    await store.setSynced(DEP, true);

    await store.createDeployment({ id: FAILED, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await store.transact(FAILED, block(1), [{ op: "set", entityType: "Account", id: "carol", data: account("carol", "Carol", 1n) }]);
    await store.markFailed(FAILED, { message: "boom", block: block(2), handler: "h", deterministic: true });
  });
  afterAll(async () => {
    await store.close();
    await backend.cleanup();
  });

  it("pages a collection in id order with graph-node's value formats", async () => {
    const first = await q("{ approvalQueries(first: 1000) { id owner value blockNumber } }");
    const rows = (first.data?.approvalQueries ?? []) as Record<string, string>[];
    expect(rows).toHaveLength(1000);
    expect(rows[0]).toEqual({ id: "0x00000000", owner: OWNER_A, value: "0", blockNumber: "0" });
    expect(rows[1]).toEqual({ id: "0x00000001", owner: OWNER_B, value: "1000000000000000000", blockNumber: "1" });
    const rest = await q("{ approvalQueries(first: 1000, skip: 1000) { id } }");
    expect((rest.data?.approvalQueries as unknown[]).length).toBe(100);
    const dflt = await q("{ approvalQueries { id } }");
    expect((dflt.data?.approvalQueries as unknown[]).length).toBe(100);
    const ids = rows.map((r) => r.id);
    expect([...ids].sort()).toEqual(ids);
  });

  it("filters with suffixes, and/or, and orders", async () => {
    const byOwner = await q(`{ approvalQueries(first: 1000, where: { owner: "${OWNER_B.toUpperCase().replace("0X", "0x")}" }) { owner } }`);
    expect((byOwner.data?.approvalQueries as unknown[]).length).toBe(550);
    const gt = await q('{ approvalQueries(where: { blockNumber_gte: "1090", value_lt: "1095000000000000000000" }) { blockNumber } }');
    expect(gt.data?.approvalQueries).toEqual([1090, 1091, 1092, 1093, 1094].map((n) => ({ blockNumber: String(n) })));
    const or = await q('{ approvalQueries(where: { or: [{ blockNumber: "5" }, { blockNumber_in: ["7", "9"] }] }) { blockNumber } }');
    expect(or.data?.approvalQueries).toEqual([{ blockNumber: "5" }, { blockNumber: "7" }, { blockNumber: "9" }]);
    const desc = await q("{ approvalQueries(first: 2, orderBy: blockNumber, orderDirection: desc) { blockNumber } }");
    expect(desc.data?.approvalQueries).toEqual([{ blockNumber: "1099" }, { blockNumber: "1098" }]);
    const idDesc = await q("{ approvalQueries(first: 1, orderBy: id, orderDirection: desc) { id } }");
    expect(idDesc.data?.approvalQueries).toEqual([{ id: "0x0000044b" }]);
    // orderDirection alone keeps graph-node's default order.
    const dirOnly = await q("{ approvalQueries(first: 1, orderDirection: desc) { id } }");
    expect(dirOnly.data?.approvalQueries).toEqual([{ id: "0x00000000" }]);
    const str = await q('{ accounts(where: { name_starts_with_nocase: "bob", name_not_contains: "x" }) { id } }');
    expect(str.data?.accounts).toEqual([{ id: "bob" }]);
    const list = await q('{ accounts(where: { tags_contains: ["Red"] }) { id tags count } }');
    expect(list.data?.accounts).toEqual([{ id: "alice", tags: ["Red"], count: 3 }]);
    const child = await q('{ approvalQueries(first: 2, where: { account_: { name: "Alice" } }) { id } }');
    expect(child.data?.approvalQueries).toEqual([{ id: "0x00000000" }, { id: "0x00000003" }]);
    const changed = await q("{ accounts(where: { _change_block: { number_gte: 13 } }) { id } }");
    expect(changed.data?.accounts).toEqual([{ id: "bob" }]);
    const byChild = await q('{ approvalQueries(orderBy: account__name, where: { blockNumber_in: ["1", "3", "4", "6"] }) { blockNumber } }');
    expect(byChild.data?.approvalQueries).toEqual([{ blockNumber: "3" }, { blockNumber: "6" }, { blockNumber: "1" }, { blockNumber: "4" }]);
    const mixed = await q('{ accounts(where: { name: "Alice", or: [{ id: "a" }] }) { id } }');
    expect(mixed.errors?.[0]?.message).toBe(
      "Cannot mix column filters with 'or' operator at the same level. Found column filter(s) 'name' alongside 'or' operator.\n\nInstead of:\nwhere: { 'name', or: [...] }\n\nUse:\nwhere: { or: [{ 'name', ... }, { 'name', ... }] }",
    );
    const badOrder = await q("{ accounts(orderBy: approvals) { id } }");
    expect(badOrder.errors?.[0]?.message).toBe("Ordering by `approvals` is not supported for type `Account`");
  });

  it("resolves references, derived fields, aliases, fragments and variables", async () => {
    const r = await q(
      `query Q($id: ID!) { a: account(id: $id) { ...F approvals(first: 2, orderBy: blockNumber, orderDirection: desc) { blockNumber account { id } } } }
       fragment F on Account { name balance __typename }`,
      { id: "alice" },
    );
    expect(r).toEqual({ data: { a: { name: "Alice", balance: "10", __typename: "Account", approvals: [
      { blockNumber: "1098", account: { id: "alice" } }, { blockNumber: "1095", account: { id: "alice" } },
    ] } } });
    const skipped = await q('{ accounts(where: { id_in: ["alice", "bob"] }) { id approvals(first: 2, skip: 1, orderBy: blockNumber) { blockNumber } } }');
    expect(skipped.data?.accounts).toEqual([{ id: "alice", approvals: [{ blockNumber: "3" }, { blockNumber: "6" }] }, { id: "bob", approvals: [] }]);
    const single = await q('{ approvalQuery(id: "0x00000003") { id account { name } } missing: approvalQuery(id: "0x99") { id } }');
    expect(single.data).toEqual({ approvalQuery: { id: "0x00000003", account: { name: "Alice" } }, missing: null });
  });

  it("answers at a block: number, hash, number_gte and _meta", async () => {
    const at = await q('{ approvalQueries(first: 1000, block: { number: 3 }) { id } account(id: "bob", block: { number: 12 }) { balance } }');
    expect((at.data?.approvalQueries as unknown[]).length).toBe(200);
    expect(at.data?.account).toEqual({ balance: "20" });
    const byHash = await q(`{ approvalQueries(first: 1000, block: { hash: "${block(2).hash}" }) { id } }`);
    expect((byHash.data?.approvalQueries as unknown[]).length).toBe(100);
    const future = await q("{ accounts(block: { number: 99 }) { id } }");
    expect(future).toEqual({ errors: [{ message: `Failed to decode \`block.number\` value: \`subgraph ${DEP} has only indexed up to block number 13 and data for block number 99 is therefore not yet available\`` }] });
    const gte = await q("{ accounts(block: { number_gte: 14 }) { id } }");
    expect(gte.errors?.[0]?.message).toMatch(/^Failed to decode `block.number_gte` value/);
    const meta = await q("{ _meta { block { number hash timestamp parentHash } deployment hasIndexingErrors } }");
    expect(meta.data).toEqual({ _meta: { block: { number: 13, hash: block(13).hash, timestamp: null, parentHash: null }, deployment: DEP, hasIndexingErrors: false } });
    const meta12 = await q("{ _meta(block: { number: 12 }) { block { number hash } } }");
    expect(meta12.data).toEqual({ _meta: { block: { number: 12, hash: null } } });
  });

  it("gives graph-node-shaped errors for bad queries", async () => {
    expect(await q("{ foo }")).toEqual({ errors: [{ locations: [{ line: 1, column: 3 }], message: "Type `Query` has no field `foo`" }] });
    expect(await q("{ accounts { nope } }")).toEqual({ errors: [{ locations: [{ line: 1, column: 14 }], message: "Type `Account` has no field `nope`" }] });
    expect(await q("{ approvalQueries(first: 5000) { id } }")).toEqual({ errors: [{ message: "The `first` argument must be between 0 and 1000, but is 5000" }] });
    const wrongType = await q('{ approvalQueries(first: "ten") { id } }');
    expect(wrongType.errors?.[0]?.message).toBe('Invalid value provided for argument `first`: String("ten")');
    const badBigInt = await q('{ approvalQueries(where: { value: "abc" }) { id } }');
    expect(badBigInt.errors?.[0]?.message).toBe('Invalid value provided for argument `where`: Object({"value": String("abc")})');
    const parseError = await q("{ accounts { id }");
    expect(parseError.errors?.[0]?.locations).toEqual([{ line: 1, column: 18 }]);
    expect(await q("{ accounts { id } }", {}, "QmNope")).toEqual({ errors: [{ message: "deployment `QmNope` does not exist" }] });
  });

  it("takes graph-node's first/skip limits as options", async () => {
    const strict = createQueryExecutor({ store, maxFirst: 10, maxSkip: 20 });
    expect(await strict.run(DEP, { query: "{ accounts(first: 11) { id } }" })).toEqual({ errors: [{ message: "The `first` argument must be between 0 and 10, but is 11" }] });
    expect(await strict.run(DEP, { query: "{ accounts(first: 5, skip: 21) { id } }" })).toEqual({ errors: [{ message: "The `skip` argument must be between 0 and 20, but is 21" }] });
    expect((await strict.run(DEP, { query: "{ accounts(first: 10, skip: 1) { id } }" })).data).toEqual({ accounts: [{ id: "bob" }] });
  });

  it("applies subgraphError for a failed deployment", async () => {
    expect(await q("{ accounts { id } }", {}, FAILED)).toEqual({ errors: [{ message: "indexing_error" }] });
    expect(await q("{ accounts(subgraphError: allow) { id } }", {}, FAILED)).toEqual({ data: { accounts: [{ id: "carol" }] }, errors: [{ message: "indexing_error" }] });
    expect(await q("{ accounts(block: { number: 1 }) { id } }", {}, FAILED)).toEqual({ data: { accounts: [{ id: "carol" }] } });
    const meta = await q("{ _meta { hasIndexingErrors block { number } } }", {}, FAILED);
    expect(meta).toEqual({ data: { _meta: { hasIndexingErrors: true, block: { number: 2 } } } });
    const both = await q("{ _meta { hasIndexingErrors } accounts { id } }", {}, FAILED);
    expect(both).toEqual({ data: { _meta: { hasIndexingErrors: true } }, errors: [{ message: "indexing_error" }] });
    // graph-node spares `_meta` by its response key, and only when nothing else is asked: an alias loses
    // its data, a `__typename` beside it brings the indexing_error (its answers in the non-fatal-errors case).
    expect(await q("{ m: _meta { hasIndexingErrors } }", {}, FAILED)).toEqual({ errors: [{ message: "indexing_error" }] });
    expect(await q("{ _meta { hasIndexingErrors } __typename }", {}, FAILED)).toEqual({ data: { _meta: { hasIndexingErrors: true } }, errors: [{ message: "indexing_error" }] });
    // A group's policy is deny when any of its fields lacks `subgraphError: allow`.
    expect(await q("{ _meta { hasIndexingErrors } accounts(subgraphError: allow) { id } }", {}, FAILED)).toEqual({ data: { _meta: { hasIndexingErrors: true } }, errors: [{ message: "indexing_error" }] });
    const intro = await q('{ __type(name: "Account") { name } }', {}, FAILED);
    expect(intro).toEqual({ data: { __type: { name: "Account" } }, errors: [{ message: "indexing_error" }] });
  });

  it("queries interfaces across their implementers, enums and Int8 ids", async () => {
    const sdl = `
      enum Color { Red, Blue }
      interface Thing { id: ID! weight: Int! }
      type Box implements Thing @entity { id: ID! weight: Int! color: Color }
      type Ball implements Thing @entity { id: ID! weight: Int! owner: Owner }
      type Owner @entity { id: Int8! balls: [Ball!]! @derivedFrom(field: "owner") }
    `;
    const id = "QmInterfaces";
    await store.createDeployment({ id, schemaSdl: sdl, network: "localhost", startBlock: 1, manifest: "m" });
    const str = (v: string) => ({ kind: "String" as const, value: v });
    const int = (v: number) => ({ kind: "Int" as const, value: v });
    await store.transact(id, block(1), [
      { op: "set", entityType: "Box", id: "b1", data: new Map<string, StoreValue>([["id", str("b1")], ["weight", int(5)], ["color", str("Red")]]) },
      { op: "set", entityType: "Box", id: "b2", data: new Map<string, StoreValue>([["id", str("b2")], ["weight", int(1)], ["color", str("Blue")]]) },
      { op: "set", entityType: "Ball", id: "a1", data: new Map<string, StoreValue>([["id", str("a1")], ["weight", int(3)], ["owner", { kind: "Int8" as const, value: 7n }]]) },
      { op: "set", entityType: "Owner", id: "7", data: new Map<string, StoreValue>([["id", { kind: "Int8" as const, value: 7n }]]) },
    ]);
    const things = await q("{ things(orderBy: weight) { id weight __typename ... on Box { color } } }", {}, id);
    expect(things).toEqual({ data: { things: [
      { id: "b2", weight: 1, __typename: "Box", color: "Blue" },
      { id: "a1", weight: 3, __typename: "Ball" },
      { id: "b1", weight: 5, __typename: "Box", color: "Red" },
    ] } });
    const byId = await q('{ things(where: { id_in: ["b1", "a1"] }) { id } }', {}, id);
    expect(byId.data?.things).toEqual([{ id: "a1" }, { id: "b1" }]);
    const enums = await q("{ boxes(where: { color: Blue }) { id } }", {}, id);
    expect(enums.data?.boxes).toEqual([{ id: "b2" }]);
    const owner = await q('{ owner(id: "7") { id balls { id } } owners(where: { balls_: { weight_gt: 2 } }) { id } }', {}, id);
    expect(owner.data).toEqual({ owner: { id: "7", balls: [{ id: "a1" }] }, owners: [{ id: "7" }] });
  });

  it("serves introspection through graphql-js", async () => {
    const r = await q(getIntrospectionQuery());
    expect(r.errors).toBeUndefined();
    const types = ((r.data?.__schema as { types: { name: string }[] }).types).map((t) => t.name);
    expect(types).toEqual(expect.arrayContaining(["ApprovalQuery", "ApprovalQuery_filter", "ApprovalQuery_orderBy", "Block_height", "_Meta_", "BigInt", "Bytes", "Int8", "Timestamp"]));
    const mixed = await q('{ __type(name: "Account") { name } accounts(first: 1) { id __typename } }');
    expect(mixed).toEqual({ data: { __type: { name: "Account" }, accounts: [{ id: "alice", __typename: "Account" }] } });
  });
});
