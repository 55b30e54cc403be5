import { describe, expect, it } from "vitest";
import { subsquidErrors, subsquidIndexingStart, subsquidLastBlock, subsquidLastProgress } from "./subsquidLog.js";

const line = (time: number, msg: string, extra: Record<string, unknown> = {}) => JSON.stringify({ level: 2, time, ns: "sqd:processor", msg, ...extra });

describe("subsquidIndexingStart", () => {
  it("reads the time of the processing line", () => {
    const log = ["> node lib/main.js", line(1000, "processing blocks from 2"), line(1200, "using chain RPC data source"), line(1900, "12 / 42, rate: 20 blocks/sec, mapping: 30 blocks/sec, 5000 items/sec, eta: 2s")].join("\n");
    expect(subsquidIndexingStart(log)).toBe(1000);
  });

  it("says so when the line is missing", () => {
    expect(() => subsquidIndexingStart(line(0, "using chain RPC data source"))).toThrow(/processing blocks from/);
  });
});

describe("subsquidLastProgress", () => {
  it("returns the last progress line, or null", () => {
    const log = [line(1, "1 / 9, rate: 1 blocks/sec"), line(2, "9 / 9, rate: 4 blocks/sec")].join("\n");
    expect(subsquidLastProgress(log)).toBe("9 / 9, rate: 4 blocks/sec");
    expect(subsquidLastProgress(line(0, "processing blocks from 2"))).toBeNull();
  });
});

describe("subsquidErrors", () => {
  it("lists error and fatal lines with their error's message", () => {
    const log = [line(0, "fine"), JSON.stringify({ level: 5, time: 1, ns: "sqd:processor", msg: "", err: { message: "connect ECONNREFUSED 127.0.0.1:5432", stack: "Error: connect ..." } }), JSON.stringify({ level: 4, time: 2, ns: "sqd:processor:rpc", msg: "rpc call failed" })].join("\n");
    expect(subsquidErrors(log)).toEqual(["connect ECONNREFUSED 127.0.0.1:5432", "rpc call failed"]);
  });
});

describe("subsquidLastBlock", () => {
  it("reads the gauge from the metrics text", () => {
    const text = "# HELP sqd_processor_last_block Last processed block\n# TYPE sqd_processor_last_block gauge\nsqd_processor_last_block 42\n";
    expect(subsquidLastBlock(text)).toBe(42);
    expect(subsquidLastBlock("sqd_processor_last_block -1\n")).toBe(-1);
    expect(subsquidLastBlock("# HELP sqd_processor_last_block Last processed block\n")).toBeNull();
  });
});
