// The database-free description of an entity query. The GraphQL layer builds it from a query;
// the store turns it into SQL (local-node/store/querySql.ts). Values are as GraphQL received them
// (BigInt/BigDecimal/Int8/Bytes as strings), already checked against the field types.

export type FilterOp =
  | "eq" | "not" | "gt" | "lt" | "gte" | "lte" | "in" | "not_in"
  | "contains" | "not_contains" | "contains_nocase" | "not_contains_nocase"
  | "starts_with" | "starts_with_nocase" | "not_starts_with" | "not_starts_with_nocase"
  | "ends_with" | "ends_with_nocase" | "not_ends_with" | "not_ends_with_nocase";

export type FilterScalar = string | number | boolean | null;

export type EntityFilter =
  | { kind: "and"; filters: EntityFilter[] }
  | { kind: "or"; filters: EntityFilter[] }
  /** `field_op: value` on a stored field (for lists: `contains` etc. test array containment). */
  | { kind: "compare"; field: string; op: FilterOp; value: FilterScalar | FilterScalar[] }
  /** `field_: {...}`: the referenced entity (or, for derived fields, any referencing entity) matches. */
  | { kind: "child"; field: string; filter: EntityFilter }
  /** `_change_block: {number_gte}`: entities changed at or after the block. */
  | { kind: "changeBlock"; numberGte: number }
  /** A `@fulltext` search field (by its name) matching `to_tsquery(text)`. */
  | { kind: "fulltext"; name: string; text: string };

export interface EntityOrder {
  field: string;
  direction: "asc" | "desc";
  /** Child sorting (`field__childField`): order by an attribute of the entity `field` references. */
  childField?: string;
  /** `field` is a `@fulltext` search field: order by its rank for this query text. */
  fulltextText?: string;
}

/** What to fetch for each result object. Keys are response keys (aliases). */
export type Selection =
  | { key: string; kind: "field"; field: string }
  | { key: string; kind: "typename" }
  /** A reference field (single, list, or @derivedFrom), fetched in one query per level. */
  | { key: string; kind: "child"; field: string; query: ChildQuery };

export interface ChildQuery {
  /** For an aggregation's buckets: the interval's table (`Stats_hour`) and whether to add the in-progress bucket. */
  aggregation?: { table: string; current: boolean };
  filter: EntityFilter | null;
  order: EntityOrder | null;
  skip: number;
  first: number;
  selection: Selection[];
}

export interface EntityQuery {
  /** Concrete entity types; several for an interface (merged, ordered as graph-node: by the order). */
  entityTypes: string[];
  filter: EntityFilter | null;
  /** null => id ascending. The id is always the last sort key. */
  order: EntityOrder | null;
  skip: number;
  first: number;
  /** Entities as of this block. */
  block: number;
  selection: Selection[];
  /** For an aggregation's table: also the in-progress bucket (graph-node's `current: include`). */
  current?: boolean;
  /** On Postgres, the statement is cancelled after this many ms (statement_timeout); PGlite cannot cancel. */
  timeoutMs?: number;
}

/** Result rows keyed by response key; scalars JSON-ready (BigInt etc. as strings, Bytes as 0x hex). */
export type ResultObject = { [key: string]: unknown };

export interface EntityQueryResult {
  rows: ResultObject[];
}
