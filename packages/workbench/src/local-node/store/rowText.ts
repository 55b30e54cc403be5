// Entity values as the text Postgres parses (`::type` casts and COPY's text format), and an immutable
// row as one COPY line. Pure, and apart from the store's database code: the handlers' thread writes its
// immutable rows with `copyLine`, so that the committing thread hands them to COPY as they come instead
// of receiving each entity as a Map and formatting it there.
import type { ScalarKind } from "../../subgraph-schema/index.js";
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { StoreError } from "./errors.js";

export interface CopyColumn {
  field: string;
  kind: ScalarKind;
  list: boolean;
}

/** An immutable table's COPY columns in the store's order: its fields, `block$`, then the causality region where it has one. */
export interface CopyTable {
  columns: CopyColumn[];
  idField: string;
  idKind: ScalarKind;
  region: boolean;
}

/** A deployment's immutable tables by entity type, for writing their rows as COPY lines. */
export type CopyPlan = Record<string, CopyTable>;

/** Immutable rows of one entity type as COPY lines (each ending in a newline), ready for the store. */
export interface CopiedRows {
  entityType: string;
  lines: string;
  rows: number;
}

/** A StoreValue as the text Postgres parses for the column's type (`::type` cast in SQL). */
export function toSqlText(column: CopyColumn, value: StoreValue | undefined): string | null {
  if (value === undefined || value.kind === "Null") return null;
  if (column.list) {
    if (value.kind !== "Array") throw new StoreError(`field ${column.field}: expected a list, got ${value.kind}`);
    return `{${value.value.map((item) => arrayItem(column.kind, item)).join(",")}}`;
  }
  return scalarText(column.kind, value, column.field);
}

function arrayItem(kind: ScalarKind, value: StoreValue): string {
  if (value.kind === "Null") return "NULL";
  const text = scalarText(kind, value, "list item");
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function scalarText(kind: ScalarKind, value: StoreValue, field: string): string {
  switch (value.kind) {
    case "String":
      return value.value;
    case "Bytes": {
      // A Bytes value in a text column (e.g. an ID filled from an address) is stored as 0x hex.
      return (kind === "Bytes" ? "\\x" : "0x") + hexOf(value.value);
    }
    case "BigInt":
    case "Int8":
    case "Timestamp":
      return value.value.toString();
    case "BigDecimal":
      return value.value;
    case "Int":
      return String(value.value);
    case "Bool":
      return value.value ? "t" : "f";
    case "Array":
    case "Null":
      throw new StoreError(`field ${field}: unexpected ${value.kind} value`);
  }
}

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** A value in COPY's text format: `\N` for null; backslash, tab, newline and carriage return escaped. */
export function copyText(text: string | null): string {
  if (text === null) return "\\N";
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]!) : text;
}

const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** The value a column stores for an entity: its field, the id column from the id when the field is missing. */
function columnValue(table: CopyTable, column: CopyColumn, id: string, data: EntityData): StoreValue | undefined {
  return column.field === table.idField ? storedId(table.idKind, id, data) : data.get(column.field);
}

/** A column's value for an entity as the text Postgres parses for its type (INSERT's text parameters). */
export function columnText(table: CopyTable, column: CopyColumn, id: string, data: EntityData): string | null {
  return toSqlText(column, columnValue(table, column, id, data));
}

/** The id as stored: the entity's own `id` field, else the change's id in the id column's kind. */
function storedId(idKind: ScalarKind, id: string, data: EntityData): StoreValue {
  const fromData = data.get("id");
  if (fromData && fromData.kind !== "Null") return fromData;
  if (idKind === "Bytes") return { kind: "Bytes", value: Uint8Array.from(Buffer.from(id.replace(/^0x/, ""), "hex")) };
  if (idKind === "Int8") return { kind: "Int8", value: BigInt(id) };
  return { kind: "String", value: id };
}

/** One row of an immutable table as a COPY text line, newline included. */
export function copyLine(table: CopyTable, id: string, data: EntityData, block: number, region: number): string {
  let line = "";
  for (const column of table.columns) {
    line += `${copyValue(column, columnValue(table, column, id, data))}\t`;
  }
  line += String(block);
  if (table.region) line += `\t${region}`;
  return `${line}\n`;
}

function copyValue(column: CopyColumn, value: StoreValue | undefined): string {
  // The common scalars need no escaping: spared the escape test (a bytea's backslash is doubled here).
  if (!column.list && value !== undefined) {
    if (value.kind === "Bytes" && column.kind === "Bytes") return `\\\\x${hexOf(value.value)}`;
    if (value.kind === "BigInt" || value.kind === "Int8" || value.kind === "Timestamp") return value.value.toString();
    if (value.kind === "Int") return String(value.value);
  }
  return copyText(toSqlText(column, value));
}
