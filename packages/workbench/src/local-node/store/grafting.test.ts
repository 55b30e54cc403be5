import { describe, expect, it } from "vitest";
import { buildLayout } from "./layout.js";
import { graftIncompatibilities } from "./grafting.js";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { describeBackends, useStore } from "./_test/backends.js";
import { OWNER_A, TEST_SCHEMA, account, approval, block } from "./_test/fixtures.js";

const balance = (entity: Map<string, unknown> | null) => (entity?.get("balance") as { value: bigint } | undefined)?.value;
const layoutOf = (sdl: string) => buildLayout("sgd1", parseSubgraphSchema(sdl));

describe("graftIncompatibilities (graph-node's Layout::can_copy_from)", () => {
  const base = layoutOf(`type T @entity { id: ID!, a: String!, b: Int, c: BigInt!, e: Color, l: [Int!] } enum Color { RED, BLUE } type Gone @entity { id: ID! }`);
  it("accepts the same schema, new tables, new nullable attributes and a wider enum", () => {
    expect(graftIncompatibilities(base, base)).toEqual([]);
    expect(graftIncompatibilities(layoutOf(`type T @entity { id: ID!, a: String!, b: Int, c: BigInt!, e: Color, l: [Int!], extra: String } enum Color { RED, BLUE, GREEN } type New @entity { id: ID!, x: Int! }`), base)).toEqual([]);
  });
  it("names each attribute that cannot take the base's values", () => {
    const dst = layoutOf(`type T @entity { id: ID!, a: String!, b: Int!, c: BigDecimal!, e: Color, l: Int, n: String! } enum Color { RED }`);
    expect(graftIncompatibilities(dst, base)).toEqual([
      "The attribute T.b is non-nullable, but the corresponding attribute in the source is nullable",
      "The attribute T.c has type BigDecimal!, but its type in the source is BigInt!",
      "the enum type Color contains values not present in Color",
      "The attribute T.l has type Int, but its type in the source is [Int!]",
      "The attribute T.n is non-nullable, but there is no such attribute in the source",
    ]);
  });
});

describeBackends("grafting", (makeBackend) => {
  const open = useStore(makeBackend);

  it("starts a deployment from its base's data as of the graft block", async () => {
    const base = "QmGraftBase";
    await open().createDeployment({ id: base, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m", historyBlocks: 900 });
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const a = approval(n, OWNER_A, "alice");
      await open().transact(base, block(n), [
        { op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", BigInt(n)) },
        { op: "set", entityType: "ApprovalQuery", id: a.id, data: a.data },
        ...(n === 2 ? [{ op: "set" as const, entityType: "Account", id: "bob", data: account("bob", "Bob", 2n) }] : []),
        ...(n === 5 ? [{ op: "remove" as const, entityType: "Account", id: "bob" }] : []),
      ]);
    }
    const grafted = await open().createDeployment({ id: "QmGrafted", schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m", graft: { base, block: block(4) } });
    expect(grafted).toMatchObject({ latestBlock: { number: 4, hash: block(4).hash }, historyBlocks: 900, earliestBlock: 0 });
    // Alice as of block 4, with her history; bob still there (removed at 5 in the base only); no approval of 5 or 6.
    expect(balance(await open().getEntity("QmGrafted", "Account", "alice"))).toBe(4n);
    expect(balance(await open().getEntity("QmGrafted", "Account", "alice", 2))).toBe(2n);
    expect(balance(await open().getEntity("QmGrafted", "Account", "bob"))).toBe(2n);
    expect(await open().getEntity("QmGrafted", "ApprovalQuery", approval(5, OWNER_A).id)).toBeNull();
    expect(await open().entityCount("QmGrafted")).toBe(2 + 4);
    expect(await open().recentBlockHash("QmGrafted", 3)).toBe(block(3).hash);
    // The base is untouched, and the graft indexes on from block 5.
    expect(balance(await open().getEntity(base, "Account", "alice"))).toBe(6n);
    await open().transact("QmGrafted", block(5), [{ op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", 50n) }]);
    expect(balance(await open().getEntity("QmGrafted", "Account", "alice"))).toBe(50n);
    await expect(open().revertTo("QmGrafted", block(3))).rejects.toThrow("Can not revert subgraph `QmGrafted` to block 3 as it was grafted at block 4 and reverting past a graft point is not possible");
  });

  it("refuses an incompatible schema and leaves nothing behind", async () => {
    const base = "QmGraftBase2";
    await open().createDeployment({ id: base, schemaSdl: TEST_SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await open().transact(base, block(1), [{ op: "set", entityType: "Account", id: "alice", data: account("alice", "Alice", 1n) }]);
    const incompatible = TEST_SCHEMA.replace("ratio: BigDecimal", "ratio: BigDecimal!");
    await expect(open().createDeployment({ id: "QmGraftBad", schemaSdl: incompatible, network: "localhost", startBlock: 1, manifest: "m", graft: { base, block: block(1) } })).rejects.toThrow(
      /cannot be used as the graft base for `sgd\d+` because the schemas are incompatible:\n {4}- The attribute Account.ratio is non-nullable, but the corresponding attribute in the source is nullable$/,
    );
    expect(await open().getDeployment("QmGraftBad")).toBeNull();
  });
});
