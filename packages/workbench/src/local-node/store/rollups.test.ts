import { expect, it } from "vitest";
import { describeBackends, useStore } from "./_test/backends.js";
import { block } from "./_test/fixtures.js";
import type { EntityData } from "../../wasm-host/index.js";

const SCHEMA = `
type Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! token: Bytes! amount: BigDecimal! n: Int! }
type Stats @aggregation(intervals: ["hour", "day"], source: "Data") {
  id: Int8!
  timestamp: Timestamp!
  token: Bytes!
  total: BigDecimal! @aggregate(fn: "sum", arg: "amount")
  weighted: BigDecimal! @aggregate(fn: "sum", arg: "amount * n")
  biggest: Int! @aggregate(fn: "max", arg: "n")
  opening: BigDecimal! @aggregate(fn: "first", arg: "amount")
  closing: BigDecimal! @aggregate(fn: "last", arg: "amount")
  points: Int8! @aggregate(fn: "count", cumulative: true)
  volume: BigDecimal! @aggregate(fn: "sum", arg: "amount", cumulative: true)
}`;
const HOUR = 3_600;
const T0 = 1_700_000_000 - (1_700_000_000 % 86_400); // a day's start, in seconds
const A = "0x" + "aa".repeat(20);
const B = "0x" + "bb".repeat(20);

function point(n: number, token: string, amount: string, weight: number, seconds: number): { op: "set"; entityType: string; id: string; data: EntityData } {
  const id = BigInt(n);
  return {
    op: "set",
    entityType: "Data",
    id: id.toString(),
    data: new Map([
      ["id", { kind: "Int8", value: id }],
      ["timestamp", { kind: "Timestamp", value: BigInt(seconds) * 1_000_000n }],
      ["token", { kind: "Bytes", value: Uint8Array.from(Buffer.from(token.slice(2), "hex")) }],
      ["amount", { kind: "BigDecimal", value: amount }],
      ["n", { kind: "Int", value: weight }],
    ]) as EntityData,
  };
}

const at = (n: number, seconds: number) => ({ ...block(n), timestamp: seconds });

describeBackends("rollups", (makeBackend) => {
  const open = useStore(makeBackend);

  const rows = async (id: string, table: string, blockNumber = 2147483647) => {
    const fields = ["id", "timestamp", "token", "total", "weighted", "biggest", "opening", "closing", "points", "volume"];
    const r = await open().queryEntities(id, { entityTypes: [table], filter: null, order: { field: "timestamp", direction: "asc" }, skip: 0, first: 100, block: blockNumber, selection: fields.map((f) => ({ key: f, kind: "field" as const, field: f })) });
    // Numeric text as stored ("4.0"); the GraphQL layer prints BigDecimals as graph-node does.
    const plain = (text: string) => (text.includes(".") ? text.replace(/\.?0+$/, "") : text);
    return r.rows.map((row) => Object.fromEntries(fields.map((f) => [f, plain(String((row as Record<string, unknown>)[f]))])));
  };

  it("rolls a bucket up when a written block's time passes it, as graph-node", async () => {
    const id = "QmRollups";
    await open().createDeployment({ id, schemaSdl: SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    await open().transact(id, at(1, T0 + 10), [point(1, A, "1.5", 2, T0 + 10), point(2, B, "10", 1, T0 + 10)]);
    await open().transact(id, at(2, T0 + 1_200), [point(3, A, "2.5", 4, T0 + 1_200)]);
    expect(await rows(id, "Stats_hour")).toEqual([]);
    // Hour 1 begins: hour 0 is rolled up, as rows of block 3.
    await open().transact(id, at(3, T0 + HOUR + 5), [point(4, A, "4", 1, T0 + HOUR + 5)]);
    const hour0 = await rows(id, "Stats_hour");
    expect(hour0.map(({ token, total, weighted, biggest, opening, closing, points, volume }) => ({ token, total, weighted, biggest, opening, closing, points, volume }))).toEqual(
      expect.arrayContaining([
        { token: A, total: "4", weighted: "13", biggest: "4", opening: "1.5", closing: "2.5", points: "2", volume: "4" },
        { token: B, total: "10", weighted: "10", biggest: "1", opening: "10", closing: "10", points: "1", volume: "10" },
      ]),
    );
    expect(hour0).toHaveLength(2);
    expect(new Set(hour0.map((r) => r.timestamp))).toEqual(new Set([String(BigInt(T0) * 1_000_000n)]));
    expect(await rows(id, "Stats_hour", 2)).toEqual([]);
    // A day later: hour 1 is rolled up (cumulative aggregates carry A's earlier bucket), and day 0.
    await open().transact(id, at(4, T0 + 86_400 + 7), [point(5, B, "1", 1, T0 + 86_400 + 7)]);
    const hours = await rows(id, "Stats_hour");
    expect(hours.filter((r) => r.timestamp === String(BigInt(T0 + HOUR) * 1_000_000n)).map(({ token, total, points, volume }) => ({ token, total, points, volume }))).toEqual([
      { token: A, total: "4", points: "3", volume: "8" },
    ]);
    const days = await rows(id, "Stats_day");
    expect(days.map(({ token, total, opening, closing, points, volume }) => ({ token, total, opening, closing, points, volume }))).toEqual(
      expect.arrayContaining([
        { token: A, total: "8", opening: "1.5", closing: "4", points: "3", volume: "8" },
        { token: B, total: "10", opening: "10", closing: "10", points: "1", volume: "10" },
      ]),
    );
    // Rollups are no entities of the subgraph's; a revert takes back those of the reverted blocks.
    expect(await open().entityCount(id)).toBe(5);
    await open().revertTo(id, at(3, T0 + HOUR + 5));
    expect(await rows(id, "Stats_day")).toEqual([]);
    expect(await rows(id, "Stats_hour")).toHaveLength(2);
  });
});
