// An entity's fields are members of an unordered set, each hashed from the root on its own: a member's
// hash depends on its name and value alone. The same member comes again and again (an owner's address,
// a token's symbol, a flag), so its hash is kept, by name and value, and computed once.
import type { StoreValue } from "../../wasm-host/index.js";

/**
 * Entries per generation (a member's hash is 32 to 256 bytes): an entry read or computed goes into the
 * young one, and a full young generation becomes the old one, dropping the old. A member that recurs
 * stays (a hit in the old generation moves up) while the flood of members seen once (ids, amounts)
 * passes through. One cache of 20,000 entries, emptied when full, held up to 10 MiB in the hashing thread
 * after a 100,000-approval catch-up, nearly all of it members never seen again.
 */
const GENERATION_ENTRIES = 2_048;
/** Values longer than this (bytes, characters) are hashed each time: rarely repeated, costly to key. */
const MAX_VALUE_LENGTH = 96;

export class MemberHashCache<T> {
  private young = new Map<string, T>();
  private old = new Map<string, T>();

  /** The hash of member (`name`, `value`): kept, or `compute()`d and kept. */
  get(name: string, value: StoreValue, compute: () => T): T {
    const key = memberKey(name, value);
    if (key === null) return compute();
    const kept = this.young.get(key);
    if (kept !== undefined) return kept;
    const hash = this.old.get(key) ?? compute();
    this.young.set(key, hash);
    if (this.young.size >= GENERATION_ENTRIES) (this.old = this.young), (this.young = new Map());
    return hash;
  }

  /** How many entries are kept (both generations; a member may be in both). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}

/** A key that tells members apart: the value's kind, the name, the value; null for what is not kept. */
function memberKey(name: string, value: StoreValue): string | null {
  switch (value.kind) {
    case "Null":
      return `Null\u0000${name}`;
    case "Bytes":
      return value.value.length > MAX_VALUE_LENGTH ? null : `Bytes\u0000${name}\u0000${Buffer.from(value.value).toString("hex")}`;
    case "String":
    case "BigDecimal":
      return value.value.length > MAX_VALUE_LENGTH ? null : `${value.kind}\u0000${name}\u0000${value.value}`;
    case "Int":
    case "Int8":
    case "BigInt":
    case "Timestamp":
    case "Bool":
      return `${value.kind}\u0000${name}\u0000${String(value.value)}`;
    case "Array":
      return null;
  }
}
