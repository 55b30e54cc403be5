import { describe, expect, it } from "vitest";
import { createHarness } from "./_test/harness.js";
import type { EntityData } from "./types.js";

describe("entity handlers (subgraph composition)", () => {
  it("passes the source's entity as graph-node does: fields sorted by name, null ones and the vid left out", async () => {
    const { instance } = await createHarness("entityTrigger.as.ts");
    instance.beginBlock({ number: 7, hash: "0x" + "07".repeat(32) });
    const entity: EntityData = new Map([
      ["value", { kind: "BigInt", value: 42n }],
      ["vid", { kind: "Int8", value: 3n }],
      ["owner", { kind: "Null" }],
      ["id", { kind: "Bytes", value: new Uint8Array([0xab, 0xcd]) }],
      ["blockNumber", { kind: "BigInt", value: 7n }],
    ]);
    instance.runEntityHandler("handleSourceEntity", entity, 1_700_000_000);
    const [change] = instance.takeChanges();
    expect(change).toMatchObject({ entityType: "Note", op: "set" });
    expect(change?.op === "set" ? change.data.get("text") : null).toEqual({ kind: "String", value: "blockNumber,id,value:42" });
  });
});
