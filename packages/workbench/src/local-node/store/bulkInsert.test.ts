// A batch of immutable entities large enough for the bulk path (COPY on PGlite, `unnest` on a server)
// reads back exactly as the handlers wrote it, text that COPY's format must escape included.
import { expect, it } from "vitest";
import type { EntityData, StoreValue } from "../../wasm-host/values/storeValue.js";
import { describeBackends, useStore } from "./_test/backends.js";
import { block, bytes } from "./_test/fixtures.js";

const SCHEMA = `
type Note @entity(immutable: true) {
  id: ID!
  text: String!
  payload: Bytes
  amount: BigInt
  price: BigDecimal
  count: Int
  flag: Boolean
  tags: [String!]
}
`;

// Tab, newline, carriage return and backslash are COPY's own syntax; `\N` is its null.
const AWKWARD = ["plain", "tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "\\x41", 'quote " and \'', "ünïcødé ✓", ""];

function note(n: number): { id: string; data: EntityData } {
  const text = `${AWKWARD[n % AWKWARD.length]} #${n}`;
  const id = n % 7 === 0 ? `id\twith\\awkward\n${n}` : `note-${n}`;
  const data = new Map<string, StoreValue>([
    ["id", { kind: "String", value: id }],
    ["text", { kind: "String", value: text }],
  ]);
  // Every third note leaves the optional fields out: they read back as absent.
  if (n % 3 !== 0) {
    data.set("payload", bytes(`0x${n.toString(16).padStart(6, "0")}5c09`));
    data.set("amount", { kind: "BigInt", value: BigInt(n) * -(10n ** 30n) });
    data.set("price", { kind: "BigDecimal", value: `${n}.125` });
    data.set("count", { kind: "Int", value: n });
    data.set("flag", { kind: "Bool", value: n % 2 === 0 });
    data.set("tags", { kind: "Array", value: [{ kind: "String", value: AWKWARD[(n + 1) % AWKWARD.length]! }, { kind: "String", value: "x,y {z}" }] });
  }
  return { id, data };
}

describeBackends("bulk insert of immutable entities", (makeBackend) => {
  const store = useStore(makeBackend);

  it("reads 600 entities of one commit back as written", async () => {
    const id = "QmBulkInsert";
    await store().createDeployment({ id, schemaSdl: SCHEMA, network: "localhost", startBlock: 1, manifest: "m" });
    const notes = Array.from({ length: 600 }, (_, n) => note(n));
    await store().transactBlocks(id, [
      { block: block(1), changes: notes.slice(0, 300).map((e) => ({ op: "set" as const, entityType: "Note", id: e.id, data: e.data })) },
      { block: block(2), changes: notes.slice(300).map((e) => ({ op: "set" as const, entityType: "Note", id: e.id, data: e.data })) },
    ]);
    for (const e of notes) {
      const stored = await store().getEntity(id, "Note", e.id);
      expect(stored, e.id).toEqual(e.data);
    }
    // Written at their own blocks: the first block's notes exist at block 1, the second's do not yet.
    expect(await store().getEntity(id, "Note", notes[299]!.id, 1)).toEqual(notes[299]!.data);
    expect(await store().getEntity(id, "Note", notes[300]!.id, 1)).toBeNull();
  });
});
