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

/** A shallow copy (values are never mutated): about twice as fast as `new Map(data)`, which iterates entries. */
export function copyEntity(data: EntityData): EntityData {
  const out: EntityData = new Map();
  for (const [name, value] of data) out.set(name, value);
  return out;
}

/** A write produced by running handlers, to be committed by a store. */
export type EntityChange =
  | { op: "set"; entityType: string; id: string; data: EntityData }
  | { op: "remove"; entityType: string; id: string };

/** A block as the store and indexer see it. Hashes are lowercase 0x hex. */
export interface BlockPtr {
  number: number;
  hash: string;
}

/** Whether two values are the same store value (kind and content). */
export function storeValuesEqual(a: StoreValue, b: StoreValue): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "Null") return true;
  if (a.kind === "Bytes") {
    const other = (b as { value: Uint8Array }).value;
    return a.value.length === other.length && a.value.every((byte, i) => byte === other[i]);
  }
  if (a.kind === "Array") {
    const other = (b as { value: StoreValue[] }).value;
    return a.value.length === other.length && a.value.every((item, i) => storeValuesEqual(item, other[i]!));
  }
  return a.value === (b as { value: unknown }).value;
}

/** Whether two entities have the same fields with the same values. */
export function entityDataEqual(a: EntityData, b: EntityData): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) {
    const other = b.get(name);
    if (other === undefined || !storeValuesEqual(value, other)) return false;
  }
  return true;
}
