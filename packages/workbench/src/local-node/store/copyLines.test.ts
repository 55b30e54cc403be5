// Immutable rows handed in as COPY lines (the handlers' thread writes them with rowText.copyLine) are
// stored as the same entities given as changes, on the database that takes them; the other refuses them.
import { expect, it } from "vitest";
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { describeBackends, useStore } from "./_test/backends.js";
import { block, bytes } from "./_test/fixtures.js";
import { copyLine } from "./rowText.js";

const SCHEMA = `
type Note @entity(immutable: true) {
  id: ID!
  text: String!
  raw: Bytes
  amount: BigInt!
  ratio: BigDecimal
  count: Int
  big: Int8
  flag: Boolean
  at: Timestamp
  tags: [String!]
  keys: [Bytes!]
}
`;

function note(n: number): { id: string; data: EntityData } {
  const id = `note-${n}`;
  const fields: [string, StoreValue][] = [
    ["id", { kind: "String", value: id }],
    // Each of COPY's escapes, a quote and a brace for the list syntax, and non-ASCII text.
    ["text", { kind: "String", value: `tab\there\nnew\\back\rret "q" {b} ü ${n}` }],
    ["amount", { kind: "BigInt", value: -(10n ** 30n) * BigInt(n + 1) }],
    ["ratio", { kind: "BigDecimal", value: "-12.0625" }],
    ["count", { kind: "Int", value: n - 3 }],
    ["big", { kind: "Int8", value: 2n ** 60n + BigInt(n) }],
    ["flag", { kind: "Bool", value: n % 2 === 0 }],
    ["at", { kind: "Timestamp", value: 1_700_000_000_000_000n + BigInt(n) }],
    ["tags", { kind: "Array", value: [{ kind: "String", value: 'a,"b"\\c' }, { kind: "String", value: "" }] }],
    ["keys", { kind: "Array", value: [bytes("0x00ff"), bytes("0x")] }],
  ];
  // Every other note leaves its nullable bytes unset.
  if (n % 2 === 1) fields.push(["raw", bytes(`0x${n.toString(16).padStart(4, "0")}`)]);
  return { id, data: new Map(fields) };
}

let counter = 0;

describeBackends("Immutable rows as COPY lines", (makeBackend) => {
  const store = useStore(makeBackend);

  it("stores the lines as the same entities given as changes, or refuses them where COPY is not taken", async () => {
    counter += 1;
    const [asChanges, asLines] = [`QmCopyA${counter}`, `QmCopyB${counter}`];
    for (const id of [asChanges, asLines]) await store().createDeployment({ id, schemaSdl: SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const notes = Array.from({ length: 6 }, (_, n) => note(n));
    await store().transact(asChanges, block(2), notes.map((x) => ({ op: "set" as const, entityType: "Note", id: x.id, data: x.data })));

    const plan = await store().copyPlan(asLines);
    const copied = plan === null ? null : [{ entityType: "Note", lines: notes.map((x) => copyLine(plan["Note"]!, x.id, x.data, 2, 0)).join(""), rows: notes.length }];
    if (copied === null) {
      // A Postgres server through pg: no plan, and lines handed in anyway are refused with the reason.
      const line = "note-0\tt\t\\N\t1\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t2\n";
      await expect(store().transactBlocks(asLines, [{ block: block(2), changes: [], copied: [{ entityType: "Note", lines: line, rows: 1 }] }])).rejects.toThrow(/COPY lines, which this database does not take/);
      expect(await store().getDeployment(asLines)).toMatchObject({ latestBlock: null });
      return;
    }
    expect(Object.keys(plan!)).toEqual(["Note"]);
    await store().transactBlocks(asLines, [{ block: block(2), changes: [], copied }]);
    for (const x of notes) {
      const stored = await store().getEntity(asLines, "Note", x.id);
      expect(stored).toEqual(await store().getEntity(asChanges, "Note", x.id));
      expect(stored).toEqual(x.data);
    }
    expect(await store().entityCount(asLines, 2)).toBe(notes.length);
    // A line for an id already stored breaks the unique id, and nothing of the batch stays.
    await expect(store().transactBlocks(asLines, [{ block: block(3), changes: [], copied: [{ entityType: "Note", lines: copied[0]!.lines, rows: notes.length }] }])).rejects.toThrow();
    expect((await store().getDeployment(asLines))?.latestBlock).toEqual(block(2));
    await expect(store().transactBlocks(asLines, [{ block: block(3), changes: [], copied: [{ entityType: "Nope", lines: "x\n", rows: 1 }] }])).rejects.toThrow(/no immutable entity type/);
  });
});
