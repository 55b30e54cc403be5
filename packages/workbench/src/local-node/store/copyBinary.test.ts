// Rows in Postgres's binary COPY format read back from a real PGlite exactly as given: every field
// type the writer has, with the values whose encodings are edge cases (empty, negative, multi-byte).
import { afterAll, beforeAll, expect, it } from "vitest";
import { binaryCopy } from "./copyBinary.js";
import { createDatabase, type Database } from "./database.js";

let db: Database;
beforeAll(async () => {
  db = await createDatabase({});
  await db.exec("create table t (n int4 not null, s text not null, b bytea not null, a text[] not null)");
});
afterAll(() => db.close());

it("writes int4, text, bytea and text[] as PGlite reads them", async () => {
  const rows = [
    { n: 0, s: "", b: new Uint8Array(), a: [] as string[] },
    { n: -2147483648, s: "ünïcødé ✓ \t\n\\", b: Uint8Array.from([0, 255, 92, 10, 9]), a: ["", "x,y {z}", "\"q\""] },
    { n: 2147483647, s: "plain", b: new Uint8Array(70_000).fill(7), a: ["0", "1"] },
  ];
  await db.copyFrom!(
    "copy t (n, s, b, a) from '/dev/blob' with (format binary)",
    binaryCopy(rows.map((r) => [{ int4: r.n }, { text: r.s }, { bytea: r.b }, { textArray: r.a }])),
  );
  const back = await db.query<{ n: number; s: string; b: Uint8Array; a: string[] }>("select n, s, b, a from t order by n");
  expect(back.map((r) => ({ n: r.n, s: r.s, b: [...r.b], a: r.a }))).toEqual(
    [...rows].sort((x, y) => x.n - y.n).map((r) => ({ n: r.n, s: r.s, b: [...r.b], a: r.a })),
  );
  // An empty array is a zero-dimensional one, as Postgres writes '{}'.
  expect((await db.query<{ d: number | null }>("select array_ndims(a) as d from t where n = 0"))[0]!.d).toBeNull();
});

it("refuses a payload whose row has the wrong number of fields, and writes none of it", async () => {
  const before = (await db.query<{ c: number }>("select count(*)::int as c from t"))[0]!.c;
  await expect(db.copyFrom!("copy t (n, s, b, a) from '/dev/blob' with (format binary)", binaryCopy([[{ int4: 1 }, { text: "only two" }]]))).rejects.toThrow(/row field count is 2, expected 4/);
  expect((await db.query<{ c: number }>("select count(*)::int as c from t"))[0]!.c).toBe(before);
  // A number an int4 cannot hold is refused before anything is sent, not wrapped into another value.
  expect(() => binaryCopy([[{ int4: 2 ** 31 }, { text: "" }, { bytea: new Uint8Array() }, { textArray: [] }]])).toThrow(/2147483648 is out of range for an int4 column/);
});
