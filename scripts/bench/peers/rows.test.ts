import { describe, expect, it } from "vitest";
import { compareWithChain, digestRows } from "./rows.js";
import type { Row, RowShape } from "./workload.js";

const shape: RowShape = { fields: [{ name: "owner", kind: "hex" }, { name: "spender", kind: "hex" }, { name: "value", kind: "integer" }] };
const row = (i: number, value: string | number = String(i)): Row => ({ id: `0xab${i}-0`, owner: "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266", spender: `0x${String(i).padStart(40, "0")}`, value });

describe("digestRows", () => {
  it("ignores order, hex case and how a value is written", () => {
    const a = digestRows([row(1), row(2)], shape);
    const b = digestRows([{ ...row(2), owner: String(row(2).owner).toLowerCase() }, { ...row(1), value: "0x1" }], shape);
    expect(b.sha256).toBe(a.sha256);
    expect(a.count).toBe(2);
  });

  it("takes an Int field as a number or as text, and a negative integer as itself", () => {
    const ticks: RowShape = { fields: [{ name: "tick", kind: "integer" }] };
    expect(digestRows([{ id: "a", tick: -887220 }], ticks).sha256).toBe(digestRows([{ id: "a", tick: "-887220" }], ticks).sha256);
    expect(digestRows([{ id: "a", tick: -1 }], ticks).sha256).not.toBe(digestRows([{ id: "a", tick: 1 }], ticks).sha256);
  });

  it("tells rows apart by any column", () => {
    expect(digestRows([row(1, "5")], shape).sha256).not.toBe(digestRows([row(1, "6")], shape).sha256);
  });

  it("names a row that lacks a field", () => {
    expect(() => digestRows([{ id: "0xab1-0", owner: "0x1", spender: "0x2" }], shape)).toThrow("row 0xab1-0 has no value");
  });
});

describe("compareWithChain", () => {
  const chain = digestRows([row(1), row(2), row(3)], shape);

  it("passes engines that hold the chain's rows", () => {
    expect(() => compareWithChain(chain, { ours: digestRows([row(3), row(1), row(2)], shape) })).not.toThrow();
  });

  it("names each engine that differs, and its first differing row", () => {
    expect(() => compareWithChain(chain, { ours: chain, ponder: digestRows([row(1), row(3)], shape) })).toThrow(/ponder holds 2 rows.*chain 3 events.*row 1: ponder has 0xab3-0/s);
    expect(() => compareWithChain(chain, { "graph-node": digestRows([row(1), row(2), row(3, "9")], shape) })).toThrow(/graph-node.*row 2:.* 9, the chain has .* 3$/m);
  });
});
