// Rows as every engine and the chain hold them: normalised by the workload's row shape, sorted by id and
// hashed, so that engines prove they indexed the same events; the first difference names what differs.
import { createHash } from "node:crypto";
import type { Row, RowShape } from "./workload.js";

/** A row's fields as text: hex in lower case, integers in decimal (from a number, decimal or 0x text). */
export type NormalRow = Record<string, string>;

export interface RowDigest {
  count: number;
  sha256: string;
  /** Sorted and normalised, for naming the first difference. */
  rows: NormalRow[];
  fields: string[];
}

function normalise(row: Row, shape: RowShape): NormalRow {
  const out: NormalRow = { id: row.id.toLowerCase() };
  for (const { name, kind } of shape.fields) {
    const value = row[name];
    if (value === undefined || value === null) throw new Error(`row ${row.id} has no ${name}`);
    out[name] = kind === "hex" ? String(value).toLowerCase() : BigInt(value as string | number | bigint).toString();
  }
  return out;
}

/** Rows sorted by id (bytewise, as graph-node orders), hashed as `id,<field>,...` lines. */
export function digestRows(rows: Row[], shape: RowShape): RowDigest {
  const sorted = rows.map((r) => normalise(r, shape)).sort((a, b) => (a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0));
  const fields = ["id", ...shape.fields.map((f) => f.name)];
  const hash = createHash("sha256");
  for (const r of sorted) hash.update(`${fields.map((f) => r[f]).join(",")}\n`);
  return { count: sorted.length, sha256: hash.digest("hex"), rows: sorted, fields };
}

/** The first row where two sorted row lists part, described for an error message. */
function firstDifference(a: RowDigest, b: RowDigest, aName: string, bName: string): string {
  const line = (r: NormalRow | undefined) => (r ? a.fields.map((f) => r[f]).join(" ") : "(no row)");
  for (let i = 0; i < Math.max(a.rows.length, b.rows.length); i++) {
    const x = a.rows[i];
    const y = b.rows[i];
    if (!x || !y || a.fields.some((f) => x[f] !== y[f])) return `row ${i}: ${aName} has ${line(x)}, ${bName} has ${line(y)}`;
  }
  return "no row differs";
}

/** Every engine's rows against the chain's own events; throws naming each engine that differs. */
export function compareWithChain(chain: RowDigest, engines: Record<string, RowDigest>): void {
  const wrong: string[] = [];
  for (const [name, d] of Object.entries(engines)) {
    if (d.sha256 === chain.sha256) continue;
    wrong.push(`${name} holds ${d.count} rows (digest ${d.sha256.slice(0, 12)}), the chain ${chain.count} events (digest ${chain.sha256.slice(0, 12)}); first difference: ${firstDifference(d, chain, name, "the chain")}`);
  }
  if (wrong.length) throw new Error(`the engines do not hold the same rows as the chain:\n  ${wrong.join("\n  ")}`);
}
