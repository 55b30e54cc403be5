// The StableHash encodings of graph-node's values, entities and events for the fast hasher (stable-hash
// main branch impls, graph-node's `stable_hash::StableHash` impls): fields by address, a value's variant
// number written at its own address, default values (null, 0, false, "") writing nothing.
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { parseBigDecimal } from "../../wasm-host/values/index.js";
import { bigToBytesLeView } from "./littleEndian.js";
import { FAST_ROOT, fastChild, FastStableHasher } from "./fastHasher.js";
import type { PoiEvent } from "./events.js";
import { MemberHashCache } from "./memberCache.js";

const EMPTY = new Uint8Array(0);
const utf8 = new TextEncoder();

export function fastBytes(bytes: Uint8Array, a: bigint, h: FastStableHasher): void {
  if (bytes.length > 0) h.write(a, bytes);
}

export function fastString(s: string, a: bigint, h: FastStableHasher): void {
  fastBytes(utf8.encode(s), a, h);
}

/** AsInt: a negative sign at child 0, the magnitude's little-endian bytes (no high zeros) at the node. */
export function fastInt(v: bigint | number, a: bigint, h: FastStableHasher): void {
  const n = BigInt(v);
  if (n < 0n) h.write(fastChild(a, 0), EMPTY);
  fastBytes(bigToBytesLeView(n < 0n ? -n : n), a, h);
}

/** Option<T>: the value at child 0, a marker at the node. */
export function fastOption<T>(v: T | null, a: bigint, h: FastStableHasher, each: (v: T, a: bigint, h: FastStableHasher) => void): void {
  if (v === null) return;
  each(v, fastChild(a, 0), h);
  h.write(a, EMPTY);
}

/** graph-node's variant numbers for Value. */
const VARIANTS: Record<Exclude<StoreValue["kind"], "Null">, number> = {
  String: 1,
  Int: 2,
  BigDecimal: 3,
  Bool: 4,
  Array: 5,
  Bytes: 6,
  BigInt: 7,
  Int8: 8,
  Timestamp: 9,
};

function fastInner(v: Exclude<StoreValue, { kind: "Null" }>, a: bigint, h: FastStableHasher): void {
  switch (v.kind) {
    case "String":
      return fastString(v.value, a, h);
    case "Int":
    case "Int8":
    case "BigInt":
    case "Timestamp":
      return fastInt(v.value, a, h);
    case "Bool":
      if (v.value) h.write(a, EMPTY);
      return;
    case "Bytes":
      return fastBytes(v.value, a, h);
    case "BigDecimal": {
      const d = parseBigDecimal(v.value) ?? { digits: 0n, exp: 0 };
      fastInt(-d.exp, fastChild(a, 1), h);
      return fastInt(d.digits, a, h);
    }
    case "Array":
      v.value.forEach((item, i) => fastValue(item, fastChild(a, i), h));
      return fastInt(v.value.length, a, h);
  }
}

export function fastValue(v: StoreValue, a: bigint, h: FastStableHasher): void {
  if (v.kind === "Null") return;
  fastInner(v, fastChild(a, 0), h);
  h.write(a, Uint8Array.of(VARIANTS[v.kind]));
}

/** AsUnorderedSet: each member hashed alone from the root (`memberHash`: its hasher's bytes), written at the set's address. */
function fastUnorderedSet<T>(members: Iterable<T>, a: bigint, h: FastStableHasher, memberHash: (m: T) => Uint8Array): void {
  for (const m of members) h.write(a, memberHash(m));
}

/** A field's own hasher after its name and its value's variant, by variant and name (see legacyEncoding). */
const fieldStates = new Map<string, Uint8Array>();
const NAME_ADDRESS = fastChild(FAST_ROOT, 0);
const VALUE_ADDRESS = fastChild(FAST_ROOT, 1);
const INNER_ADDRESS = fastChild(VALUE_ADDRESS, 0);

const fieldHashes = new MemberHashCache<Uint8Array>();

/** One (name, value) member of an entity: its own hasher's bytes. */
function fastFieldHash([name, value]: [string, StoreValue]): Uint8Array {
  return fieldHashes.get(name, value, () => {
    const own = new FastStableHasher();
    fastField(name, value, own);
    return own.toBytes();
  });
}

/** One (name, value) member of an entity, hashed from the root into its own hasher `h` (fresh). */
function fastField(name: string, value: StoreValue, h: FastStableHasher): void {
  const key = `${value.kind}\u0000${name}`;
  let state = fieldStates.get(key);
  if (state === undefined) {
    const own = new FastStableHasher();
    fastString(name, NAME_ADDRESS, own);
    if (value.kind !== "Null") own.write(VALUE_ADDRESS, Uint8Array.of(VARIANTS[value.kind]));
    fieldStates.set(key, (state = own.toBytes()));
  }
  h.mixin(FastStableHasher.fromBytes(state));
  if (value.kind !== "Null") fastInner(value, INNER_ADDRESS, h);
}

export function fastEntity(data: EntityData, a: bigint, h: FastStableHasher): void {
  fastUnorderedSet(data.entries(), a, h, fastFieldHash);
}

const EVENT_VARIANTS: Record<PoiEvent["kind"], number> = { RemoveEntity: 1, SetEntity: 2, DeterministicError: 3 };

export function fastEvent(e: PoiEvent, a: bigint, h: FastStableHasher): void {
  if (e.kind === "DeterministicError") fastInt(e.redactedEvents, fastChild(a, 0), h);
  else {
    fastString(e.entityType, fastChild(a, 0), h);
    fastString(e.id, fastChild(a, 1), h);
    if (e.kind === "SetEntity") fastEntity(e.data, fastChild(a, 2), h);
  }
  h.write(a, Uint8Array.of(EVENT_VARIANTS[e.kind]));
}
