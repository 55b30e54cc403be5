// store.* semantics through the mapping fixture: schema checks, merge, immutability, in-block reads.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHarness, errorOf, fixtureModule, type Harness } from "../_test/harness.js";
import type { EntityData } from "../values/storeValue.js";

let h: Harness;
beforeAll(async () => {
  await fixtureModule("mapping.as.ts");
}, 180_000);
beforeEach(async () => {
  h = await createHarness("mapping.as.ts");
  h.instance.beginBlock({ number: 1, hash: "0x01" });
});

const plain = (data: EntityData | undefined) => (data === undefined ? undefined : Object.fromEntries(data));
/** Commits pending changes to the memory backend, as an indexer would at the end of a block. */
const flush = (block: number) => h.backend.apply(h.instance.takeChanges(), block);

describe("store.set / get", () => {
  it("writes every value kind and reads it back through the codec", () => {
    h.call("setItemAllKinds", "x");
    const [change] = h.instance.takeChanges();
    expect(change?.op).toBe("set");
    const data = change!.op === "set" ? change!.data : new Map();
    expect(plain(data)).toEqual({
      id: { kind: "String", value: "x" },
      name: { kind: "String", value: "all" },
      count: { kind: "Int", value: -7 },
      tags: { kind: "Array", value: [{ kind: "String", value: "a" }, { kind: "String", value: "b" }] },
      big: { kind: "BigInt", value: -123456789012345678901234567890n },
      dec: { kind: "BigDecimal", value: "-1.5" },
      flag: { kind: "Bool", value: true },
      raw: { kind: "Bytes", value: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]) },
      i8: { kind: "Int8", value: -9007199254740993n },
      ts: { kind: "Timestamp", value: 1700000000000000n },
    });
    // The unknown field was dropped, as graph-node does for apiVersion < 0.0.8.
    expect(data.has("unknownField")).toBe(false);
    // Entities written back into memory read the same (sorted fields, every kind).
    const codec = h.instance.context.codec;
    expect(codec.readEntity(h.call("echoEntity", codec.writeEntity(data)) as number)).toEqual(data);
  });

  it("reads pending writes first, then the backend", () => {
    h.backend.apply([{ op: "set", entityType: "Item", id: "b", data: new Map([["id", { kind: "String", value: "b" }], ["name", { kind: "String", value: "stored" }]]) }], 0);
    expect(h.callString("getItemName", "b")).toBe("stored");
    h.call("setItem", "b", "pending", 1);
    expect(h.callString("getItemName", "b")).toBe("pending");
    expect(h.callString("getItemName", "missing")).toBe("<null>");
  });

  it("merges a set into the existing entity and drops null fields", () => {
    h.call("setItem", "m", "first", 3);
    h.call("setItemCountOnly", "m", 9);
    const entity = h.instance.context.codec.readEntity(h.call("getItem", "m") as number);
    expect(plain(entity)).toEqual({ id: { kind: "String", value: "m" }, name: { kind: "String", value: "first" }, count: { kind: "Int", value: 9 } });
  });

  it("rejects unknown types, missing non-null fields, wrong kinds, wrong ids and derived fields", () => {
    expect(errorOf(() => h.call("setUnknownType", "u")).message).toBe("Entity Nope[u]: unknown entity type `Nope`");
    expect(errorOf(() => h.call("setItemWithoutName", "n")).message).toBe("Entity Item[n]: missing value for non-nullable field `name`");
    expect(errorOf(() => h.call("setItemWrongKind", "k")).message).toBe("Entity Item[k]: the value `5` for field `name` must have type String! but has type Int");
    expect(errorOf(() => h.call("setItemWrongId", "w")).message).toBe(
      'Value of Item attribute \'id\' conflicts with ID passed to `store.set()`: String("w-other") != String("w")',
    );
    expect(errorOf(() => h.call("setAccountWithDerived", "acc")).message).toBe("Entity Account[acc]: field `items` is derived and cannot be set");
    const err = errorOf(() => h.call("setItemWithoutName", "n"));
    expect(err.deterministic).toBe(true);
    expect(h.instance.takeChanges()).toEqual([]);
  });

  it("rejects undefined fields from apiVersion 0.0.8 on", async () => {
    const v8 = await createHarness("mapping.as.ts", { apiVersion: "0.0.8" });
    expect(errorOf(() => v8.call("setItemAllKinds", "x")).message).toBe(
      "Attempted to set undefined fields [unknownField] for the entity type `Item`. Make sure those fields are defined in the schema.",
    );
  });

  it("removes mutable entities", () => {
    h.call("setItem", "r", "x", 1);
    h.call("removeItem", "r");
    expect(h.callString("getItemName", "r")).toBe("<null>");
    expect(h.instance.takeChanges()).toEqual([{ op: "remove", entityType: "Item", id: "r" }]);
  });

  it("loads related entities through @derivedFrom, pending and stored", () => {
    h.call("setAccount", "acc");
    h.call("setItemOwned", "i1", "acc");
    flush(1);
    h.instance.beginBlock({ number: 2, hash: "0x02" });
    h.call("setItemOwned", "i2", "acc");
    h.call("setItemOwned", "i3", "other");
    expect(h.call("countRelated", "acc")).toBe(2);
    const store = h.instance.context.store;
    expect(() => store.loadRelated("Account", "acc", "nope")).toThrow("Entity Account[acc]: unknown field `nope`");
    expect(() => store.loadRelated("Item", "i1", "owner")).toThrow("Entity Item[i1]: field is not derived `owner`");
  });
});

describe("immutable entities and the block cache", () => {
  const id = "0x" + "ab".repeat(20);

  it("allows setting an immutable entity again in the same block", () => {
    h.call("setFrozen", id, 1);
    h.call("setFrozen", id, 2);
    const changes = h.instance.takeChanges();
    expect(changes).toHaveLength(1);
    expect(changes[0]!.op === "set" && changes[0]!.data.get("value")).toEqual({ kind: "BigInt", value: 2n });
    expect(changes[0]!.op === "set" && changes[0]!.data.get("id")).toEqual({ kind: "Bytes", value: Uint8Array.from(Buffer.from("ab".repeat(20), "hex")) });
  });

  it("fails to set it in a later block, whether committed or still pending", () => {
    h.call("setFrozen", id, 1);
    h.instance.beginBlock({ number: 2, hash: "0x02" });
    const pendingErr = errorOf(() => h.call("setFrozen", id, 2));
    expect(pendingErr.code).toBe("IMMUTABLE");
    expect(pendingErr.message).toBe(`entity Frozen[${id}] is immutable; inserting it at block 2 is not possible as it was already inserted at block 1`);
    flush(1);
    h.instance.beginBlock({ number: 3, hash: "0x03" });
    expect(errorOf(() => h.call("setFrozen", id, 3)).deterministic).toBe(true);
  });

  it("keys Bytes ids as lowercase hex, whatever case the mapping used", () => {
    h.call("setFrozen", id.toUpperCase().replace("0X", "0x"), 1);
    expect(h.instance.context.store.get("Frozen", id)?.get("value")).toEqual({ kind: "BigInt", value: 1n });
    expect(h.instance.takeChanges().map((c) => c.id)).toEqual([id]);
  });

  it("never removes an immutable entity", () => {
    h.call("setFrozen", id, 1);
    const err = errorOf(() => h.call("removeFrozen", id));
    expect(err.code).toBe("IMMUTABLE");
    expect(err.message).toBe(`entity type Frozen is immutable; removing Frozen[${id}] is not possible`);
  });

  it("get_in_block sees only this block's writes", () => {
    h.backend.apply([{ op: "set", entityType: "Item", id: "old", data: new Map([["id", { kind: "String", value: "old" }], ["name", { kind: "String", value: "o" }]]) }], 0);
    h.call("setItem", "new", "n", 1);
    expect(h.call("getItemInBlock", "new")).toBe(1);
    expect(h.call("getItemInBlock", "old")).toBe(0);
    h.instance.beginBlock({ number: 2, hash: "0x02" });
    expect(h.call("getItemInBlock", "new")).toBe(0);
    expect(h.callString("getItemName", "new")).toBe("n");
  });

  it("mockInBlock and clearInBlock serve Matchstick's in-block store", () => {
    const store = h.instance.context.store;
    store.mockInBlock("Frozen", id, new Map([["id", { kind: "Bytes", value: new Uint8Array(20).fill(0xab) }], ["value", { kind: "BigInt", value: 1n }]]));
    h.call("setFrozen", id, 5);
    store.clearInBlock();
    expect(errorOf(() => h.call("setFrozen", id, 6)).code).toBe("IMMUTABLE");
  });

  it("keeps first-write order and one change per entity in takeChanges", () => {
    h.call("setItem", "b", "1", 1);
    h.call("setItem", "a", "1", 1);
    h.call("setItem", "b", "2", 2);
    const changes = h.instance.takeChanges();
    expect(changes.map((c) => c.id)).toEqual(["b", "a"]);
    expect(changes[0]!.op === "set" && changes[0]!.data.get("name")).toEqual({ kind: "String", value: "2" });
    expect(h.instance.takeChanges()).toEqual([]);
  });
});
