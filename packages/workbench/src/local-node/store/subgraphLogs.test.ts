// The log store under `_logs`: what is recorded is what a query reads back, per deployment, filtered and
// ordered as graph-node's file log store does it, on both backends.
import { describe, expect, it } from "vitest";
import { describeBackends, useStore } from "./_test/backends.js";
import { createTimestampClock } from "./logRecorder.js";
import type { SubgraphLogQuery } from "./subgraphLogs.js";

const ALL: SubgraphLogQuery = { level: null, from: null, to: null, search: null, first: 100, skip: 0, orderDirection: "desc" };

describeBackends("log store", (makeBackend) => {
  const store = useStore(makeBackend);

  it("reads back each deployment's own entries, newest first, with graph-node's id", async () => {
    const s = store();
    s.recordLog("QmA", { level: "info", text: "first", module: "m" });
    s.recordLog("QmB", { level: "info", text: "other deployment", module: "m" });
    s.recordLog("QmA", { level: "warn", text: "second", arguments: [["data_source", "Token"]], module: "m" });
    const entries = await s.queryLogs("QmA", ALL);
    expect(entries.map((e) => [e.level, e.text, e.arguments])).toEqual([["warn", "second", [["data_source", "Token"]]], ["info", "first", []]]);
    for (const e of entries) {
      expect(e.id).toBe(`QmA-${e.timestamp}`);
      expect(e.subgraphId).toBe("QmA");
      expect(e.meta).toEqual({ module: "m", line: 0, column: 0 });
    }
    expect(await s.queryLogs("QmNone", ALL)).toEqual([]);
  });

  it("filters by one level, by a case-insensitive substring, by inclusive time bounds; pages both ways", async () => {
    const s = store();
    const texts = ["Alpha timeout", "beta", "GAMMA TIMEOUT", "delta", "epsilon"];
    texts.forEach((text, i) => s.recordLog("QmF", { level: i % 2 === 0 ? "error" : "debug", text, module: "m" }));
    const all = await s.queryLogs("QmF", ALL);
    expect(all.map((e) => e.text)).toEqual([...texts].reverse());
    expect((await s.queryLogs("QmF", { ...ALL, level: "error" })).map((e) => e.text)).toEqual(["epsilon", "GAMMA TIMEOUT", "Alpha timeout"]);
    expect((await s.queryLogs("QmF", { ...ALL, search: "TimeOut" })).map((e) => e.text)).toEqual(["GAMMA TIMEOUT", "Alpha timeout"]);
    const [, second, third] = all.map((e) => e.timestamp).reverse();
    expect((await s.queryLogs("QmF", { ...ALL, from: second!, to: third!, orderDirection: "asc" })).map((e) => e.text)).toEqual(["beta", "GAMMA TIMEOUT"]);
    expect((await s.queryLogs("QmF", { ...ALL, first: 2, skip: 1 })).map((e) => e.text)).toEqual(["delta", "GAMMA TIMEOUT"]);
    expect((await s.queryLogs("QmF", { ...ALL, first: 2, skip: 1, orderDirection: "asc" })).map((e) => e.text)).toEqual(["beta", "GAMMA TIMEOUT"]);
    // Bounds are compared as text, as graph-node's file store compares them.
    expect(await s.queryLogs("QmF", { ...ALL, from: "9" })).toEqual([]);
    expect(await s.queryLogs("QmF", { ...ALL, to: "1" })).toEqual([]);
  });
});

describe("log timestamps", () => {
  it("are RFC 3339 with nanoseconds, and strictly increasing when the clock stands still or goes back", () => {
    const ticks = [1_700_000_000_123_456_789n, 1_700_000_000_123_456_789n, 1_600_000_000_000_000_000n, 1_700_000_001_000_000_000n];
    const clock = createTimestampClock(() => ticks.shift()!);
    expect([clock(), clock(), clock(), clock()]).toEqual([
      "2023-11-14T22:13:20.123456789Z",
      "2023-11-14T22:13:20.123456790Z",
      "2023-11-14T22:13:20.123456791Z",
      "2023-11-14T22:13:21.000000000Z",
    ]);
  });
});
