// Entity values as plain JS data, shared by the WASM host, the Matchstick runner and the local node.
// The kinds mirror graph-node's store `Value` enum (and graph-ts's ValueKind, in the same order).

export const StoreValueKind = {
  String: 0,
  Int: 1,
  BigDecimal: 2,
  Bool: 3,
  Array: 4,
  Null: 5,
  Bytes: 6,
  BigInt: 7,
  Int8: 8,
  Timestamp: 9,
} as const;

export type StoreValue =
  | { kind: "String"; value: string }
  | { kind: "Int"; value: number }
  | { kind: "Int8"; value: bigint }
  /** The canonical string graph-node prints for the BigDecimal (34 significant digits). */
  | { kind: "BigDecimal"; value: string }
  | { kind: "Bool"; value: boolean }
  | { kind: "Array"; value: StoreValue[] }
  | { kind: "Null" }
  | { kind: "Bytes"; value: Uint8Array }
  | { kind: "BigInt"; value: bigint }
  /** Microseconds since the epoch, as graph-node's Timestamp. */
  | { kind: "Timestamp"; value: bigint };

/** One entity's fields by name. `id` is a field like any other. */
export type EntityData = Map<string, StoreValue>;

/** A write produced by running handlers, to be committed by a store. */
export type EntityChange =
  | { op: "set"; entityType: string; id: string; data: EntityData }
  | { op: "remove"; entityType: string; id: string };

/** A block as the store and indexer see it. Hashes are lowercase 0x hex. */
export interface BlockPtr {
  number: number;
  hash: string;
}
