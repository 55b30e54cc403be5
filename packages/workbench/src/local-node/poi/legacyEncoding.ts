// The legacy StableHash encodings of graph-node's values, entities and events (stable-hash "old"
// branch impls, graph-node's `stable_hash_legacy::StableHash` impls). Sequence numbers are mutable:
// a value that takes children moves its node's counter, as in the crate.
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { parseBigDecimal } from "../../wasm-host/values/index.js";
import { LegacySeq, LegacySetHasher } from "./legacyHasher.js";
import { bigToBytesLeView } from "./littleEndian.js";
import type { PoiEvent } from "./events.js";
import { MemberHashCache } from "./memberCache.js";

const EMPTY = new Uint8Array(0);
const utf8 = new TextEncoder();

export function legacyBytes(bytes: Uint8Array, seq: LegacySeq, h: LegacySetHasher): void {
  if (bytes.length > 0) h.write(seq, bytes);
}

export function legacyString(s: string, seq: LegacySeq, h: LegacySetHasher): void {
  legacyBytes(utf8.encode(s), seq, h);
}

function legacyBool(v: boolean, seq: LegacySeq, h: LegacySetHasher): void {
  if (v) h.write(seq, EMPTY);
}

/** AsInt: the sign as a child, the magnitude's little-endian bytes (no high zeros) at the node. */
export function legacyInt(v: bigint | number, seq: LegacySeq, h: LegacySetHasher): void {
  const n = BigInt(v);
  legacyBool(n < 0n, seq.nextChild(), h);
  legacyBytes(bigToBytesLeView(n < 0n ? -n : n), seq, h);
}

/** Option<T>: whether it is there as a child, the value at the node. */
export function legacyOption<T>(v: T | null, seq: LegacySeq, h: LegacySetHasher, each: (v: T, seq: LegacySeq, h: LegacySetHasher) => void): void {
  legacyBool(v !== null, seq.nextChild(), h);
  if (v !== null) each(v, seq, h);
}

/** strum's names for graph-node's Value variants. */
const VARIANT_NAMES: Record<StoreValue["kind"], string> = {
  String: "String",
  Int: "Int",
  Int8: "Int8",
  Timestamp: "Timestamp",
  BigDecimal: "BigDecimal",
  Bool: "Bool",
  Array: "List",
  Null: "Null",
  Bytes: "Bytes",
  BigInt: "BigInt",
};

export function legacyValue(v: StoreValue, seq: LegacySeq, h: LegacySetHasher): void {
  if (v.kind === "Null") return;
  legacyString(VARIANT_NAMES[v.kind], seq.nextChild(), h);
  legacyInner(v, seq, h);
}

/** A value's content, at its node after the variant's name took the first child. */
function legacyInner(v: Exclude<StoreValue, { kind: "Null" }>, seq: LegacySeq, h: LegacySetHasher): void {
  switch (v.kind) {
    case "String":
      return legacyString(v.value, seq, h);
    case "Int":
    case "Int8":
    case "BigInt":
    case "Timestamp":
      return legacyInt(v.value, seq, h);
    case "Bool":
      return legacyBool(v.value, seq, h);
    case "Bytes":
      return legacyBytes(v.value, seq, h);
    case "BigDecimal": {
      // graph-node hashes (exponent, integer) of the normalized decimal: value = integer * 10^-exponent.
      const d = parseBigDecimal(v.value) ?? { digits: 0n, exp: 0 };
      legacyInt(-d.exp, seq.nextChild(), h);
      return legacyInt(d.digits, seq, h);
    }
    case "Array":
      for (const item of v.value) legacyValue(item, seq.nextChild(), h);
      return legacyInt(v.value.length, seq, h);
  }
}

/**
 * AsUnorderedSet: each member hashed alone (`memberHash`: its hasher's digest), their set at one child,
 * the count at another. The crate joins the members' set hasher to `h`; a product of the same cells
 * modulo P, it is the same as writing each member's cell to `h`, one multiplication less.
 */
function legacyUnorderedSet<T>(members: Iterable<T>, seq: LegacySeq, h: LegacySetHasher, memberHash: (m: T) => Uint8Array): void {
  seq.nextChild(); // the rollup's child: the crate takes it, the set hasher never uses it
  const memberSeq = seq.nextChild();
  const countSeq = seq.nextChild();
  let count = 0;
  for (const m of members) {
    h.write(memberSeq, memberHash(m));
    count++;
  }
  legacyInt(count, countSeq, h);
}

/**
 * The cells of a field's name and of its value's variant name, by variant and name: an entity's fields
 * are each hashed from the root, so these two cells are the same wherever the field appears.
 */
const fieldCells = new Map<string, bigint>();

const fieldHashes = new MemberHashCache<Uint8Array>();

/** One (name, value) member of an entity: its own hasher's digest. */
function legacyFieldHash([name, value]: [string, StoreValue]): Uint8Array {
  return fieldHashes.get(name, value, () => {
    const own = new LegacySetHasher();
    legacyField(name, value, LegacySeq.root(), own);
    return own.finish();
  });
}

/** One (name, value) member of an entity, hashed from the root `seq` into its own hasher `h`. */
function legacyField(name: string, value: StoreValue, seq: LegacySeq, h: LegacySetHasher): void {
  const nameSeq = seq.nextChild();
  const valueSeq = seq.nextChild();
  const variantSeq = value.kind === "Null" ? null : valueSeq.nextChild();
  const key = `${value.kind}\u0000${name}`;
  let cells = fieldCells.get(key);
  if (cells === undefined) {
    const own = new LegacySetHasher();
    legacyString(name, nameSeq, own);
    if (variantSeq) legacyString(VARIANT_NAMES[value.kind], variantSeq, own);
    fieldCells.set(key, (cells = own.value));
  }
  h.mixin(cells);
  if (value.kind !== "Null") legacyInner(value, valueSeq, h);
}

export function legacyEntity(data: EntityData, seq: LegacySeq, h: LegacySetHasher): void {
  legacyUnorderedSet(data.entries(), seq, h, legacyFieldHash);
}

export function legacyEvent(e: PoiEvent, seq: LegacySeq, h: LegacySetHasher): void {
  legacyString(e.kind, seq.nextChild(), h);
  if (e.kind === "DeterministicError") return legacyInt(e.redactedEvents, seq.nextChild(), h);
  legacyString(e.entityType, seq.nextChild(), h);
  legacyString(e.id, seq.nextChild(), h);
  if (e.kind === "SetEntity") legacyEntity(e.data, seq.nextChild(), h);
}
