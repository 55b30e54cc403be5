import { describe, expect, it } from "vitest";
import { contextToEntity } from "./manifestContext.js";

describe("contextToEntity", () => {
  it("turns graph-node's {type, data} entries into entity values", () => {
    const e = contextToEntity({
      flag: { type: "Bool", data: true },
      name: { type: "String", data: "pool" },
      n: { type: "Int", data: 42 },
      big: { type: "BigInt", data: "115792089237316195423570985008687907853269984665640564039457584007913129639935" },
      dec: { type: "BigDecimal", data: "7.25" },
      raw: { type: "Bytes", data: "0xdeadbeef" },
      list: { type: "List", data: [{ type: "Int8", data: 1 }, { type: "Null", data: null }] },
    });
    expect(e?.get("flag")).toEqual({ kind: "Bool", value: true });
    expect(e?.get("name")).toEqual({ kind: "String", value: "pool" });
    expect(e?.get("n")).toEqual({ kind: "Int", value: 42 });
    expect(e?.get("big")).toEqual({ kind: "BigInt", value: 2n ** 256n - 1n });
    expect(e?.get("dec")).toEqual({ kind: "BigDecimal", value: "7.25" });
    expect(e?.get("raw")).toEqual({ kind: "Bytes", value: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]) });
    expect(e?.get("list")).toEqual({ kind: "Array", value: [{ kind: "Int8", value: 1n }, { kind: "Null" }] });
    expect(contextToEntity(null)).toBeNull();
  });

  it("rejects unknown types", () => {
    expect(() => contextToEntity({ x: { type: "Float", data: 1.5 } })).toThrow(/unknown type Float/);
  });
});
