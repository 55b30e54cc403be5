import { describe, expect, it } from "vitest";
import type { EntityData } from "../../wasm-host/index.js";
import { readMockSchema } from "./mockSchema.js";
import { createMockStore } from "./mockStore.js";

const SDL = `
interface Owned { id: ID! owner: Account! }
type Account @entity { id: ID! items: [Owned!]! @derivedFrom(field: "owner") tags: [Tag!]! @derivedFrom(field: "accounts") }
type Item implements Owned @entity { id: ID! owner: Account! note: Unknown }
type Tag @entity(immutable: true) { id: ID! accounts: [Account!]! label: String }
`;

const entity = (fields: Record<string, string | string[] | null>): EntityData =>
  new Map(
    Object.entries(fields).map(([k, v]) => [
      k,
      v === null ? { kind: "Null" as const } : Array.isArray(v) ? { kind: "Array" as const, value: v.map((s) => ({ kind: "String" as const, value: s })) } : { kind: "String" as const, value: v },
    ]),
  );

describe("Matchstick's view of the schema", () => {
  it("reads required and derived fields without graph-node's checks", () => {
    const schema = readMockSchema(SDL);
    expect(schema.entities.get("Item")).toEqual(["id", "owner"]);
    expect(schema.entities.get("Tag")).toEqual(["id", "accounts"]);
    expect(schema.derived.get("Account")?.get("items")).toEqual([["Item", "owner"]]);
    expect(schema.derived.get("Account")?.get("tags")).toEqual([["Tag", "accounts"]]);
    expect(() => readMockSchema("type {")).toThrow(/Something went wrong when trying to parse `schema.graphql`/);
  });
});

describe("Matchstick's mock store", () => {
  const make = () =>
    createMockStore({
      schema: readMockSchema(SDL),
      critical: (message) => {
        throw new Error(`critical: ${message}`);
      },
    });

  it("replaces on set, keeps nulls and unknown fields, and checks only required fields", () => {
    const store = make();
    store.hostStore.set("Item", "i", entity({ id: "i", owner: "a", note: "x", extra: "y" }));
    store.hostStore.set("Item", "i", entity({ id: "i", owner: "b", note: null }));
    expect(store.get("Item", "i")).toEqual(entity({ id: "i", owner: "b", note: null }));
    expect(() => store.hostStore.set("Item", "j", entity({ id: "j" }))).toThrow("Missing value for non-nullable field 'owner' for an entity of type 'Item'.");
    expect(() => store.hostStore.set("Item", "j", entity({ id: "j", owner: null }))).toThrow("The required field 'owner' for an entity of type 'Item' is null.");
    expect(() => store.hostStore.set("Nope", "j", entity({ id: "j" }))).toThrow("critical: Something went wrong! Could not find the entity defined in the GraphQL schema.");
  });

  it("fails to remove a missing entity, removes immutable ones, and keeps the in-block map apart", () => {
    const store = make();
    expect(() => store.hostStore.remove("Tag", "t")).toThrow("(store.remove) Entity with type 'Tag' and id 't' does not exist.");
    store.hostStore.set("Tag", "t", entity({ id: "t", accounts: ["a"] }));
    store.hostStore.remove("Tag", "t");
    expect(store.hasType("Tag")).toBe(true);
    expect(store.count("Tag")).toBe(0);
    store.hostStore.set("Item", "i", entity({ id: "i", owner: "a" }));
    expect(store.hostStore.getInBlock("Item", "i")).toBeNull();
    store.mockInBlock("Item", "m", entity({ id: "m", owner: "a" }));
    expect(store.hostStore.getInBlock("Item", "m")).not.toBeNull();
    expect(store.hostStore.get("Item", "m")).toBeNull();
    store.clearInBlock();
    expect(store.hostStore.getInBlock("Item", "m")).toBeNull();
  });

  it("loads related entities through interfaces and lists", () => {
    const store = make();
    store.hostStore.set("Item", "i1", entity({ id: "i1", owner: "a" }));
    store.hostStore.set("Item", "i2", entity({ id: "i2", owner: "b" }));
    store.hostStore.set("Tag", "t", entity({ id: "t", accounts: ["b", "a"] }));
    expect(store.hostStore.loadRelated("Account", "a", "items").map((e) => e.get("id"))).toEqual([{ kind: "String", value: "i1" }]);
    expect(store.hostStore.loadRelated("Account", "a", "tags")).toHaveLength(1);
    expect(store.hostStore.loadRelated("Account", "a", "nothing")).toEqual([]);
  });
});
