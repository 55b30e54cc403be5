// Postgres's binary COPY format (`copy ... from ... with (format binary)`), for rows whose values are
// mostly bytes: a bytea travels as itself, where the text format doubles it into hex that the server
// then parses back. Only the types the store writes this way: int4, text, bytea and one-dimensional
// text[].

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
// text's type oid, as an array's element type.
const TEXT_OID = 25;
const utf8 = new TextEncoder();

export type BinaryField = { int4: number } | { text: string } | { bytea: Uint8Array } | { textArray: string[] };

/** One COPY payload: the header, each row's fields in the statement's column order, the trailer. */
export function binaryCopy(rows: BinaryField[][]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const push = (p: Uint8Array) => (parts.push(p), (size += p.length));
  const int16 = (v: number) => {
    const b = new Uint8Array(2);
    new DataView(b.buffer).setInt16(0, v);
    push(b);
  };
  const int32 = (v: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v);
    push(b);
  };
  // Signature, flags (no OIDs), header extension length.
  push(Uint8Array.from(SIGNATURE));
  int32(0);
  int32(0);
  for (const row of rows) {
    int16(row.length);
    for (const field of row) {
      if ("int4" in field) {
        // Written as 32 bits, a larger number would wrap around into another value silently.
        if (!Number.isInteger(field.int4) || field.int4 < -(2 ** 31) || field.int4 >= 2 ** 31) throw new RangeError(`${field.int4} is out of range for an int4 column`);
        int32(4);
        int32(field.int4);
      } else if ("text" in field) {
        const bytes = utf8.encode(field.text);
        int32(bytes.length);
        push(bytes);
      } else if ("bytea" in field) {
        int32(field.bytea.length);
        push(field.bytea);
      } else {
        const items = field.textArray.map((s) => utf8.encode(s));
        // Dimensions, has-nulls flag, element type, then the one dimension's length and lower bound.
        const header = field.textArray.length === 0 ? 12 : 20;
        int32(header + items.reduce((n, b) => n + 4 + b.length, 0));
        int32(items.length === 0 ? 0 : 1);
        int32(0);
        int32(TEXT_OID);
        if (items.length > 0) {
          int32(items.length);
          int32(1);
        }
        for (const b of items) {
          int32(b.length);
          push(b);
        }
      }
    }
  }
  int16(-1);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
