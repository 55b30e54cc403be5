import { describe, expect, it } from "vitest";
import { ponderBackfillSeconds, ponderErrors, ponderServerPort } from "./ponderLog.js";

const line = (time: number, msg: string, extra: Record<string, unknown> = {}) => JSON.stringify({ level: 30, time, msg, ...extra });

describe("ponderBackfillSeconds", () => {
  it("times the backfill from its start line to its completion line", () => {
    const log = [
      "Ponder 0.16.10 starting",
      line(1000, "Connected to database"),
      line(2000, "Started backfill indexing", { block_range: "[2,300]" }),
      line(2500, "Updated backfill indexing progress"),
      line(12_250, "Completed backfill indexing across all chains"),
      line(12_260, "Started returning 200 responses", { endpoint: "/ready" }),
    ].join("\n");
    expect(ponderBackfillSeconds(log)).toBe(10.25);
  });

  it("accepts the isolated ordering's completion line", () => {
    expect(ponderBackfillSeconds([line(0, "Started backfill indexing"), line(1500, "Completed backfill indexing")].join("\n"))).toBe(1.5);
  });

  it("says so when a line is missing", () => {
    expect(() => ponderBackfillSeconds(line(0, "Started backfill indexing"))).toThrow(/lacks its backfill/);
  });
});

describe("ponderErrors", () => {
  it("lists error lines with their messages", () => {
    const log = [line(0, "fine"), JSON.stringify({ level: 50, time: 1, msg: "Build failed", error: { message: "Database schema required" } })].join("\n");
    expect(ponderErrors(log)).toEqual(["Build failed: Database schema required"]);
  });
});

describe("ponderServerPort", () => {
  it("reads the port Ponder's server took", () => {
    expect(ponderServerPort([line(0, "Connected to database"), line(1, "Created HTTP server", { port: 42070, hostname: "127.0.0.1" })].join("\n"))).toBe(42070);
    expect(ponderServerPort(line(0, "Connected to database"))).toBeNull();
  });
});
