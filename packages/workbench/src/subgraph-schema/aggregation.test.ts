import { describe, expect, it } from "vitest";
import { parseSubgraphSchema } from "./subgraphSchema.js";
import { rewriteAggregateArg } from "./aggregateExpression.js";

const SOURCE = `
type Token @entity { id: Bytes! }
type TokenData @entity(timeseries: true) { id: Int8! timestamp: Timestamp! token: Token! amount: BigDecimal! priceUSD: BigDecimal! count: Int! }
`;

describe("@aggregation (graph-node's aggregations over a timeseries)", () => {
  it("reads the source, intervals, dimensions and aggregates", () => {
    const schema = parseSubgraphSchema(`${SOURCE}
      type TokenStats @aggregation(intervals: ["day", "hour"], source: "TokenData") {
        id: Int8!
        timestamp: Timestamp!
        token: Token!
        totalVolume: BigDecimal! @aggregate(fn: "sum", arg: "amount")
        value: BigDecimal! @aggregate(fn: "sum", arg: "priceUSD * amount")
        priceUSD: BigDecimal! @aggregate(fn: "last", arg: "priceUSD")
        count: Int8! @aggregate(fn: "count", cumulative: true)
      }`);
    const [stats] = schema.aggregations;
    expect(stats).toMatchObject({ name: "TokenStats", source: "TokenData", intervals: ["hour", "day"] });
    expect(stats?.dimensions.map((f) => f.name)).toEqual(["token"]);
    expect(stats?.aggregates.map(({ field, fn, arg, cumulative }) => [field.name, fn, arg, cumulative])).toEqual([
      ["totalVolume", "sum", "amount", false],
      ["value", "sum", "priceUSD * amount", false],
      ["priceUSD", "last", "priceUSD", false],
      ["count", "count", null, true],
    ]);
  });

  it("refuses what graph-node refuses, with its messages", () => {
    const agg = (body: string, directive = `intervals: ["hour"], source: "TokenData"`) => () => parseSubgraphSchema(`${SOURCE} type S @aggregation(${directive}) { id: Int8! timestamp: Timestamp! ${body} }`);
    expect(agg(`s: BigDecimal! @aggregate(fn: "sum", arg: "amount")`, `intervals: ["hour"], source: "Token"`)).toThrow("Aggregation S uses Token as the source, but that type is not a timeseries");
    expect(agg(`s: BigDecimal! @aggregate(fn: "sum", arg: "amount")`, `intervals: ["week"], source: "TokenData"`)).toThrow("Aggregation S: the interval week is not supported");
    expect(agg(`s: BigDecimal! @aggregate(fn: "avg", arg: "amount")`)).toThrow("Field s in aggregation S uses the unknown aggregation function `avg`");
    expect(agg(`s: BigDecimal! @aggregate(fn: "sum")`)).toThrow("Field s in aggregation S is missing the `arg` argument since the function sum requires it");
    expect(agg(`s: BigDecimal! @aggregate(fn: "sum", arg: "volume")`)).toThrow("Field s in aggregation S has `arg` volume but the source type does not have such a field");
    expect(agg(`token: Bytes!`)).toThrow("Field token in aggregation S has type Bytes! but its type in the source is Token!");
    expect(agg(`token: Token!`)).toThrow("Aggregation S has no @aggregate fields");
    expect(agg(`s: BigDecimal! @aggregate(fn: "max", arg: "exp(amount)")`)).toThrow("Expressions can't us the function exp");
    // Not graph-node's refusal: this node serves an aggregation field on an entity type only as @derivedFrom.
    expect(() =>
      parseSubgraphSchema(`${SOURCE} type Holder @entity { id: Bytes! stats: [S!]! } type S @aggregation(intervals: ["hour"], source: "TokenData") { id: Int8! timestamp: Timestamp! token: Token! s: BigDecimal! @aggregate(fn: "sum", arg: "amount") }`),
    ).toThrow("field Holder.stats lists the aggregation S: this node serves aggregation fields on entity types only as a list with @derivedFrom");
  });

  it("takes an entity type's @derivedFrom list of an aggregation's buckets", () => {
    const schema = parseSubgraphSchema(`${SOURCE} type S @aggregation(intervals: ["hour"], source: "TokenData") { id: Int8! timestamp: Timestamp! token: Token! s: BigDecimal! @aggregate(fn: "sum", arg: "amount") } type Holder @entity { id: Bytes! buckets: [S!]! @derivedFrom(field: "token") }`);
    expect(schema.entities.get("Holder")?.fieldsByName.get("buckets")).toMatchObject({ list: true, derivedFrom: "token", type: { kind: "reference", target: "S", targetIsAggregation: true } });
    expect(() => parseSubgraphSchema(`${SOURCE} type S @aggregation(intervals: ["hour"], source: "TokenData") { id: Int8! timestamp: Timestamp! token: Token! s: BigDecimal! @aggregate(fn: "sum", arg: "amount") } type Holder @entity { id: Bytes! buckets: [S!]! @derivedFrom(field: "nope") }`)).toThrow("@derivedFrom field nope does not exist on S");
  });
});

describe("rewriteAggregateArg", () => {
  const source = parseSubgraphSchema(SOURCE).entities.get("TokenData");
  const fail = (message: string): never => {
    throw new Error(message);
  };
  it("replaces fields with columns and keeps allowed functions, keywords and operators", () => {
    if (!source) throw new Error("no source");
    expect(rewriteAggregateArg("case when amount > priceUSD then greatest(amount, 0) else -1.5 end", source, (f) => `"${f.toLowerCase()}"`, fail)).toEqual({
      sql: 'case when "amount" > "priceusd" then greatest ( "amount" , 0 ) else - 1.5 end',
      fields: ["amount", "priceUSD"],
    });
    expect(() => rewriteAggregateArg("amount; drop table x", source, (f) => f, fail)).toThrow("Failed to parse expression: unexpected `;` at position 6 of `amount; drop table x`");
    expect(() => rewriteAggregateArg("(amount", source, (f) => f, fail)).toThrow("unbalanced parentheses");
  });
});
