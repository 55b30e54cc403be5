import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeStore } from "./nodeStore.js";
import { SubgraphExistsError, SubgraphNotFoundError } from "./errors.js";
import type { NodeStore } from "./types.js";
import type { TestBackend } from "./testDatabase.js";
import { describeBackends } from "./_test/backends.js";
import { OWNER_A, OWNER_B, TEST_SCHEMA, account, approval, block, bytes } from "./_test/fixtures.js";

const DEP = "QmTestDeployment1111111111111111111111111111111";
let counter = 0;

describeBackends("NodeStore", (makeBackend) => {
  // One database per backend (starting PGlite takes seconds); each test gets fresh deployments.
  let backend: TestBackend;
  let store: NodeStore;
  let DEP: string;
  let DEP2: string;
  beforeAll(async () => {
    backend = await makeBackend();
    store = await createNodeStore(backend.options);
  });
  afterAll(async () => {
    await store.close();
    await backend.cleanup();
  });
  beforeEach(async () => {
    counter += 1;
    DEP = `QmTest${counter}a`;
    DEP2 = `QmTest${counter}b`;
    await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
  });

  it("creates a deployment once, in its own schema", async () => {
    const again = await store.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const other = await store.createDeployment({ id: DEP2, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 5, manifest: "m2" });
    const n = Number(again.schemaName.replace("sgd", ""));
    expect(again.schemaName).toMatch(/^sgd\d+$/);
    expect(other.schemaName).toBe(`sgd${n + 1}`);
    expect(again).toMatchObject({ health: "healthy", synced: false, latestBlock: null, network: "localhost", startBlock: 1, fatalError: null });
    expect((await store.listDeployments()).map((d) => d.id).slice(-2)).toEqual([DEP, DEP2]);
  });

  it("commits entities with the pointer and reads them back as stored values", async () => {
    const a = approval(1, OWNER_A, "alice");
    await store.transact(DEP, block(3), [
      { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
      { op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", 5n, {
        ratio: { kind: "BigDecimal", value: "1.25" }, count: { kind: "Int", value: -7 }, big: { kind: "Int8", value: 2n ** 40n },
        active: { kind: "Bool", value: true }, at: { kind: "Timestamp", value: 1_700_000_000_000_123n },
        tags: { kind: "Array", value: [{ kind: "String", value: "x" }, { kind: "String", value: 'q"uote' }] },
      }) },
    ]);
    expect((await store.getDeployment(DEP))?.latestBlock).toEqual(block(3));
    expect(await store.recentBlockHash(DEP, 3)).toBe(block(3).hash);
    const got = await store.getEntity(DEP, "ApprovalQuery", a.id);
    expect(got).toEqual(a.data);
    const alice = await store.getEntity(DEP, "Account", "alice");
    expect(alice?.get("big")).toEqual({ kind: "Int8", value: 2n ** 40n });
    expect(alice?.get("at")).toEqual({ kind: "Timestamp", value: 1_700_000_000_000_123n });
    expect(alice?.get("ratio")).toEqual({ kind: "BigDecimal", value: "1.25" });
    expect(alice?.get("tags")).toEqual({ kind: "Array", value: [{ kind: "String", value: "x" }, { kind: "String", value: 'q"uote' }] });
    expect(alice?.get("active")).toEqual({ kind: "Bool", value: true });
    expect(await store.getEntity(DEP, "ApprovalQuery", a.id, 2)).toBeNull();
    expect(await store.getDerived(DEP, "ApprovalQuery", "account", "alice")).toEqual([a.data]);
    expect(await store.entityCount(DEP)).toBe(2);
  });

  it("counts immutable entities as of each block it is asked about, before and after a revert", async () => {
    for (let b = 2; b <= 7; b++) {
      const rows = Array.from({ length: b }, (_, i) => approval(b * 100 + i, OWNER_A));
      await store.transact(DEP, block(b), rows.map((r) => ({ op: "set" as const, entityType: "ApprovalQuery", id: r.id, data: r.data })));
    }
    // 2 + 3 + ... + b rows by block b; asked in a rising order, then out of it.
    const upTo = (b: number) => (b * (b + 1)) / 2 - 1;
    for (const b of [2, 4, 5, 7, 3, 7]) expect(await store.entityCount(DEP, b)).toBe(upTo(b));
    await store.revertTo(DEP, block(4));
    expect(await store.entityCount(DEP, 4)).toBe(upTo(4));
    await store.transact(DEP, block(5), [{ op: "set", entityType: "ApprovalQuery", id: approval(999, OWNER_B).id, data: approval(999, OWNER_B).data }]);
    // The revert took blocks 5-7 (22 rows) away; block 5 now holds one.
    expect(await store.entityCount(DEP, 7)).toBe(upTo(4) + 1);
  });

  it("moves immutable counts with each commit, in bulk and row by row, a same-block rewrite counted once", async () => {
    const set = (n: number, owner = OWNER_A) => ({ op: "set" as const, entityType: "ApprovalQuery", id: approval(n, owner).id, data: approval(n, owner).data });
    // What a scan of the table finds, asked without a block (no kept count): the independent truth.
    const scanned = () => store.entityCount(DEP);
    await store.transact(DEP, block(2), [set(1)]);
    expect(await store.entityCount(DEP, 2)).toBe(1);
    // Enough rows for COPY where the database has it, then a few through INSERT.
    await store.transact(DEP, block(3), Array.from({ length: 300 }, (_, i) => set(1000 + i)));
    expect(await store.entityCount(DEP, 3)).toBe(301);
    await store.transact(DEP, block(4), [set(2), set(3)]);
    // Block 4 again: one id rewritten (its row replaced, not added), one new.
    await store.transact(DEP, block(4), [set(3, OWNER_B), set(4)]);
    expect(await store.entityCount(DEP, 4)).toBe(await scanned());
    expect(await scanned()).toBe(304);
    await store.revertTo(DEP, block(3));
    await store.transact(DEP, block(4), [set(5)]);
    expect(await store.entityCount(DEP, 4)).toBe(302);
    await store.transact(DEP, block(5), [set(6), set(7)]);
    expect([await store.entityCount(DEP, 5), await scanned()]).toEqual([304, 304]);
  });

  it("keeps mutable history by block range and reverts it", async () => {
    await store.transact(DEP, block(2), [{ op: "set", entityType: "Account", id: "bob", data: account("bob", "Bob", 1n) }]);
    await store.transact(DEP, block(4), [{ op: "set", entityType: "Account", id: "bob", data: account("bob", "Bob", 2n) }]);
    // A second write in the same block replaces the version instead of adding history.
    await store.transact(DEP, block(4), [{ op: "set", entityType: "Account", id: "bob", data: account("bob", "Bob", 3n) }]);
    const a = approval(9, OWNER_B);
    await store.transact(DEP, block(6), [
      { op: "remove", entityType: "Account", id: "bob" },
      { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
    ]);
    const balanceAt = async (b?: number) => (await store.getEntity(DEP, "Account", "bob", b))?.get("balance");
    expect(await balanceAt(2)).toEqual({ kind: "BigInt", value: 1n });
    expect(await balanceAt(5)).toEqual({ kind: "BigInt", value: 3n });
    expect(await balanceAt()).toBeUndefined();
    expect(await store.entityCount(DEP)).toBe(1);
    // As of a block: bob lived from 2 to 5; the approval came at 6.
    expect([await store.entityCount(DEP, 1), await store.entityCount(DEP, 5), await store.entityCount(DEP, 6), await store.entityCount(DEP, null)]).toEqual([0, 1, 1, 0]);

    await store.revertTo(DEP, block(3));
    expect(await balanceAt()).toEqual({ kind: "BigInt", value: 1n });
    expect(await store.getEntity(DEP, "ApprovalQuery", a.id)).toBeNull();
    expect((await store.getDeployment(DEP))?.latestBlock).toEqual(block(3));
    expect(await store.recentBlockHash(DEP, 4)).toBeNull();
    expect(await store.entityCount(DEP)).toBe(1);

    // A reorg that leaves nothing of a start block 0: no pointer (not block -1, which a restart would ask the chain for).
    await store.revertTo(DEP, { number: -1, hash: "0x" });
    expect((await store.getDeployment(DEP))?.latestBlock).toBeNull();
    expect(await store.entityCount(DEP)).toBe(0);
    expect(await store.recentBlockHash(DEP, 2)).toBeNull();
  });

  it("commits several blocks at once with per-block creation blocks", async () => {
    const a = approval(1, OWNER_A);
    const b = approval(2, OWNER_A);
    await store.transactBlocks(DEP, [
      { block: block(10), changes: [{ op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data }] },
      { block: block(11), changes: [{ op: "set", entityType: "ApprovalQuery", id: b.id, data: b.data }] },
    ], [block(9), block(10)]);
    expect(await store.getEntity(DEP, "ApprovalQuery", b.id, 10)).toBeNull();
    expect(await store.getEntity(DEP, "ApprovalQuery", a.id, 10)).toEqual(a.data);
    expect((await store.getDeployment(DEP))?.latestBlock).toEqual(block(11));
    expect(await store.blockNumberForHash(DEP, block(9).hash)).toBe(9);
  });

  it("rolls a failed transaction back entirely, pointer included", async () => {
    const a = approval(1, OWNER_A);
    await expect(store.transact(DEP, block(5), [
      { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
      { op: "set", entityType: "Nope", id: "x", data: new Map() },
    ])).rejects.toThrow(/unknown entity type Nope/);
    await expect(store.transact(DEP, block(5), [{ op: "remove", entityType: "ApprovalQuery", id: a.id }])).rejects.toThrow(/immutable/);
    expect(await store.getEntity(DEP, "ApprovalQuery", a.id)).toBeNull();
    expect((await store.getDeployment(DEP))?.latestBlock).toBeNull();
  });

  it("manages names and versions like graph-node: instant switching by default, synced on request", async () => {
    const name = `me/approvals-${counter}`;
    const { id } = await store.createSubgraph(name);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await expect(store.createSubgraph(name)).rejects.toBeInstanceOf(SubgraphExistsError);
    expect(await store.subgraphExists(name)).toBe(true);
    await store.createDeployment({ id: DEP2, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m2" });
    // instant (graph-node's default): each new deployment serves at once, synced or not.
    await store.setPendingVersion(name, DEP, "v1");
    expect(await store.resolveName(name)).toBe(DEP);
    await store.setPendingVersion(name, DEP2, "v2");
    expect(await store.resolveName(name)).toBe(DEP2);
    expect(await store.resolvePendingName(name)).toBeNull();

    // synced: a new deployment waits only while the current one is synced and it is not.
    const synced = `${name}-synced`;
    await store.createSubgraph(synced);
    await store.setPendingVersion(synced, DEP, "v1", "synced");
    await store.setPendingVersion(synced, DEP2, "v2", "synced");
    expect(await store.resolveName(synced)).toBe(DEP2); // the current (DEP) was not synced
    await store.setSynced(DEP2, true);
    await store.setPendingVersion(synced, DEP, "v3", "synced");
    expect(await store.resolveName(synced)).toBe(DEP2);
    expect(await store.resolvePendingName(synced)).toBe(DEP);
    await store.promoteIfSynced(DEP);
    expect(await store.resolveName(synced)).toBe(DEP2);
    await store.setSynced(DEP, true);
    await store.promoteIfSynced(DEP);
    expect(await store.resolveName(synced)).toBe(DEP);
    expect(await store.resolvePendingName(synced)).toBeNull();

    await store.removeSubgraph(name);
    expect(await store.resolveName(name)).toBeNull();
    await expect(store.removeSubgraph(name)).rejects.toBeInstanceOf(SubgraphNotFoundError);
    await expect(store.setPendingVersion("nobody", DEP, null)).rejects.toBeInstanceOf(SubgraphNotFoundError);
  });

  it("builds attribute indexes once the deployment has synced", async () => {
    const attrIndexes = async () => (await store.listIndexes(DEP)).filter((n) => n.includes("_attr_"));
    expect(await store.listIndexes(DEP)).toEqual(expect.arrayContaining(["approval_query_id", "approval_query_block", "account_id", "account_block"]));
    expect(await attrIndexes()).toEqual([]);
    await store.setSynced(DEP, true);
    // ApprovalQuery: owner, spender, value, blockNumber, account; Account: name, balance, ratio, count, big, active, at.
    expect(await attrIndexes()).toHaveLength(12);
    await store.setSynced(DEP, false);
    await store.setSynced(DEP, true);
    expect(await attrIndexes()).toHaveLength(12);
  });

  it("compares long text and bytes exactly through the prefix indexes", async () => {
    await store.setSynced(DEP, true);
    const long = "0x" + "ab".repeat(100);
    const a = approval(1, OWNER_A);
    a.data.set("spender", bytes(long));
    const longName = "n".repeat(300);
    await store.transact(DEP, block(2), [
      { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
      { op: "set", entityType: "Account", id: "x", data: account("x", longName, 1n) },
      { op: "set", entityType: "Account", id: "y", data: account("y", longName.slice(0, 256), 1n) },
    ]);
    const ids = async (entityType: string, field: string, op: "eq" | "in", value: string) => {
      const r = await store.queryEntities(DEP, { entityTypes: [entityType], filter: { kind: "compare", field, op, value: op === "in" ? [value] : value }, order: null, skip: 0, first: 10, block: 2, selection: [{ key: "id", kind: "field", field: "id" }] });
      return r.rows.map((row) => row.id);
    };
    expect(await ids("ApprovalQuery", "spender", "eq", long)).toEqual([a.id]);
    expect(await ids("ApprovalQuery", "spender", "eq", long.slice(0, 2 + 128))).toEqual([]);
    expect(await ids("ApprovalQuery", "spender", "in", long)).toEqual([a.id]);
    expect(await ids("Account", "name", "eq", longName)).toEqual(["x"]);
    expect(await ids("Account", "name", "eq", longName.slice(0, 256))).toEqual(["y"]);
    expect(await ids("Account", "id", "in", "y")).toEqual(["y"]);
  });

  it("bounds a query's statement by its time left on Postgres (statement_timeout); PGlite answers", async () => {
    // 20,000 accounts ordered by an unindexed name: a sort well over a millisecond.
    const changes = Array.from({ length: 20_000 }, (_, i) => ({ op: "set" as const, entityType: "Account", id: `a${i}`, data: account(`a${i}`, `name-${(i * 7919) % 20_000}`, BigInt(i)) }));
    await store.transact(DEP, block(2), changes);
    const query = { entityTypes: ["Account"], filter: null, order: { field: "name", direction: "desc" as const }, skip: 19_000, first: 1000, block: 2, selection: [{ key: "id", kind: "field" as const, field: "id" }] };
    const answer = store.queryEntities(DEP, { ...query, timeoutMs: 1 });
    if (backend.options.databaseUrl) await expect(answer).rejects.toThrow(/statement timeout/);
    else expect((await answer).rows).toHaveLength(1000);
    // Without a bound, the same query answers on both.
    expect((await store.queryEntities(DEP, query)).rows).toHaveLength(1000);
  });

  it("records a fatal error and moves the pointer to the failed block", async () => {
    await store.transact(DEP, block(3), []);
    await store.markFailed(DEP, { message: "boom", block: block(4), handler: "handleApproval", deterministic: true });
    const d = await store.getDeployment(DEP);
    expect(d).toMatchObject({ health: "failed", latestBlock: block(4), firstErrorBlock: 4, fatalError: { message: "boom", block: block(4), handler: "handleApproval", deterministic: true } });
    await store.revertTo(DEP, block(3));
    expect(await store.getDeployment(DEP)).toMatchObject({ health: "healthy", fatalError: null, firstErrorBlock: null });
    await store.markFailed(DEP, { message: "rpc down", block: block(4), handler: null, deterministic: false });
    expect(await store.getDeployment(DEP)).toMatchObject({ health: "failed", latestBlock: block(3), firstErrorBlock: null });
    await store.markHealthy(DEP);
    expect(await store.getDeployment(DEP)).toMatchObject({ health: "healthy", fatalError: null });
  });

  it("keeps chain answers by chain id and key; the last write of a key wins; clearing drops one chain", async () => {
    const chain = 31337 + counter;
    await store.chainCache.write(chain, [["block:0xaa:0", '{"n":1}'], ["block:0xbb:0", '{"n":2}'], ["block:0xaa:0", '{"n":3}']]);
    await store.chainCache.write(chain + 1, [["block:0xaa:0", '{"other":true}']]);
    await store.chainCache.write(chain, [["block:0xbb:0", '{"n":4}']]);
    expect(await store.chainCache.read(chain, ["block:0xaa:0", "block:0xbb:0", "block:0xcc:0"])).toEqual(new Map([["block:0xaa:0", '{"n":3}'], ["block:0xbb:0", '{"n":4}']]));
    await store.chainCache.clear(chain);
    expect((await store.chainCache.read(chain, ["block:0xaa:0", "block:0xbb:0"])).size).toBe(0);
    expect(await store.chainCache.read(chain + 1, ["block:0xaa:0"])).toEqual(new Map([["block:0xaa:0", '{"other":true}']]));
  });
});

it("PGlite data survives closing and reopening its data directory", async () => {
  const dir = await mkdtemp(join(tmpdir(), "node-store-"));
  try {
    const first = await createNodeStore({ dataDir: join(dir, "nested", "pg") });
    await first.createDeployment({ id: DEP, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const a = approval(1, OWNER_A);
    await first.transact(DEP, block(7), [{ op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data }]);
    await first.close();
    const second = await createNodeStore({ dataDir: join(dir, "nested", "pg") });
    expect((await second.getDeployment(DEP))?.latestBlock).toEqual(block(7));
    expect(await second.getEntity(DEP, "ApprovalQuery", a.id)).toEqual(a.data);
    await second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
