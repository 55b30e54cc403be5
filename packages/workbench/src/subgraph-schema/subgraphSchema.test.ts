import { describe, expect, it } from "vitest";
import { parseSubgraphSchema, storageKind } from "./subgraphSchema.js";
import { SchemaError } from "./errors.js";

const SDL = `
enum Kind { Small, Large }
interface Named { id: ID! name: String! }
type ApprovalQuery @entity(immutable: true) {
  id: Bytes!
  owner: Bytes!
  spender: Bytes!
  value: BigInt!
  blockNumber: BigInt!
  account: Account
}
type Account implements Named @entity {
  id: ID!
  name: String!
  kind: Kind
  tags: [String!]!
  approvals: [ApprovalQuery!]! @derivedFrom(field: "account")
  score: BigDecimal
  count: Int
  big: Int8
  at: Timestamp
  flag: Boolean
}
type Series @entity(timeseries: true) { id: Int8! timestamp: Timestamp! }
`;

describe("parseSubgraphSchema", () => {
  it("reads entities, interfaces, enums, flags and field shapes", () => {
    const schema = parseSubgraphSchema(SDL);
    expect([...schema.entities.keys()]).toEqual(["ApprovalQuery", "Account", "Series"]);
    const approval = schema.entities.get("ApprovalQuery")!;
    expect(approval.immutable).toBe(true);
    expect(approval.idKind).toBe("Bytes");
    expect(approval.fieldsByName.get("value")).toEqual({
      name: "value", type: { kind: "scalar", scalar: "BigInt" }, list: false, nonNull: true, itemNonNull: false, derivedFrom: null,
    });
    expect(approval.fieldsByName.get("account")!.type).toEqual({ kind: "reference", target: "Account", targetIsInterface: false });
    const account = schema.entities.get("Account")!;
    expect(account.immutable).toBe(false);
    expect(account.idKind).toBe("String");
    expect(account.interfaces).toEqual(["Named"]);
    expect(account.fieldsByName.get("tags")).toMatchObject({ list: true, nonNull: true, itemNonNull: true });
    expect(account.fieldsByName.get("approvals")!.derivedFrom).toBe("account");
    expect(account.fieldsByName.get("kind")!.type).toEqual({ kind: "enum", enum: "Kind" });
    expect(schema.interfaces.get("Named")!.implementedBy).toEqual(["Account"]);
    expect(schema.enums.get("Kind")!.values).toEqual(["Small", "Large"]);
    const series = schema.entities.get("Series")!;
    expect(series).toMatchObject({ immutable: true, timeseries: true, idKind: "Int8" });
    expect(storageKind(schema, approval.fieldsByName.get("account")!)).toBe("String");
    expect(storageKind(schema, account.fieldsByName.get("kind")!)).toBe("String");
  });

  it("rejects bad schemas with SchemaError", () => {
    expect(() => parseSubgraphSchema("type A @entity { id: ID! ")).toThrow(SchemaError);
    expect(() => parseSubgraphSchema("type A @entity { name: String }")).toThrow(/no id field/);
    expect(() => parseSubgraphSchema("type A @entity { id: ID! x: Foo }")).toThrow(/unknown type Foo/);
    expect(() => parseSubgraphSchema("type A @entity { id: Int! }")).toThrow(/id must be/);
    expect(() => parseSubgraphSchema("type A { id: ID! }")).toThrow(/@entity/);
    expect(() => parseSubgraphSchema("type A @entity { id: ID! xs: [[String]] }")).toThrow(/nested lists/);
    expect(() => parseSubgraphSchema('type A @entity { id: ID! bs: [B!]! @derivedFrom(field: "nope") } type B @entity { id: ID! }')).toThrow(/derivedFrom/);
  });
});

describe("@entity(skipDuplicates)", () => {
  it("is kept for an immutable type and refused on a mutable one, with graph-node's message", () => {
    const schema = parseSubgraphSchema(`type Ping @entity(immutable: true, skipDuplicates: true) { id: ID! } type Pong @entity(immutable: true) { id: ID! }`);
    expect(schema.entities.get("Ping")).toMatchObject({ immutable: true, skipDuplicates: true });
    expect(schema.entities.get("Pong")?.skipDuplicates).toBeUndefined();
    expect(() => parseSubgraphSchema(`type Ping @entity(skipDuplicates: true) { id: ID! }`)).toThrow("Entity type `Ping` has skipDuplicates: true but is not immutable; skipDuplicates requires immutable: true");
  });
});

describe("timeseries and aggregations", () => {
  it("takes a timeseries as graph-node does: immutable, Int8 id, Timestamp timestamp", () => {
    const schema = parseSubgraphSchema(`type Point @entity(timeseries: true) { id: Int8! timestamp: Timestamp! value: BigInt! }`);
    expect(schema.entities.get("Point")).toMatchObject({ timeseries: true, immutable: true, idKind: "Int8" });
  });

  it("refuses a timeseries graph-node refuses, with its message", () => {
    const refused = (sdl: string) => () => parseSubgraphSchema(sdl);
    expect(refused(`type P @entity(timeseries: true, immutable: false) { id: Int8! timestamp: Timestamp! }`)).toThrow("Timeseries P is marked as mutable, it must be immutable");
    expect(refused(`type P @entity(timeseries: true) { id: Bytes! timestamp: Timestamp! }`)).toThrow("Timeseries `P` must have an `id` field of type `Int8`");
    expect(refused(`type P @entity(timeseries: true) { id: Int8! }`)).toThrow("Timeseries P is missing a `timestamp` field");
    expect(refused(`type P @entity(timeseries: true) { id: Int8! timestamp: Int8! }`)).toThrow("Type P has a `timestamp` field of type Int8, but it must be of type Timestamp");
  });

  it("recognises @aggregation types without making them entities", () => {
    const schema = parseSubgraphSchema(`type P @entity(timeseries: true) { id: Int8! timestamp: Timestamp! v: BigInt! }
      type Stats @aggregation(intervals: ["hour"], source: "P") { id: Int8! timestamp: Timestamp! sum: BigInt! @aggregate(fn: "sum", arg: "v") }`);
    expect(schema.aggregations.map((a) => a.name)).toEqual(["Stats"]);
    expect(schema.entities.has("Stats")).toBe(false);
  });
});

describe("@fulltext on _Schema_", () => {
  const base = `type Band @entity(immutable: false) { id: ID! name: String! bio: String members: Int! }\n`;
  const withSearch = (args: string) => parseSubgraphSchema(`${base}type _Schema_ @fulltext(${args})`);
  const include = `include: [{ entity: "Band", fields: [{ name: "name" }, { name: "bio" }] }]`;

  it("reads each search field: name, language and its Postgres configuration, algorithm, entity, fields", () => {
    expect(withSearch(`name: "bandSearch", language: en, algorithm: rank, ${include}`).fulltexts).toEqual([
      { name: "bandSearch", language: "en", config: "english", algorithm: "rank", entity: "Band", fields: ["name", "bio"] },
    ]);
    expect(parseSubgraphSchema(base).fulltexts).toEqual([]);
  });

  it("refuses what graph-node refuses, naming the search field", () => {
    expect(() => withSearch(`name: "bandSearch", language: xx, algorithm: rank, ${include}`)).toThrow("@fulltext bandSearch: Provided language for fulltext search is invalid: xx");
    expect(() => withSearch(`name: "bandSearch", language: en, algorithm: best, ${include}`)).toThrow("The provided fulltext search algorithm best is invalid. It must be one of: rank, proximityRank");
    expect(() => withSearch(`name: "bandSearch", language: en, algorithm: rank, include: [{ entity: "Song", fields: [{ name: "name" }] }]`)).toThrow("the included entity Song does not exist");
    expect(() => withSearch(`name: "bandSearch", language: en, algorithm: rank, include: [{ entity: "Band", fields: [{ name: "members" }] }]`)).toThrow("Band.members is not a String");
    expect(() => parseSubgraphSchema(`${base}type _Schema_ @fulltext(name: "s", language: en, algorithm: rank, ${include}) @fulltext(name: "s", language: en, algorithm: rank, ${include})`)).toThrow("the name s is used twice");
  });
});
