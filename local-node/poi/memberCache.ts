// An entity's fields are members of an unordered set, each hashed from the root on its own: a member's
// hash depends on its name and value alone. The same member comes again and again (an owner's address,
// a token's symbol, a flag), so its hash is kept, by name and value, and computed once.
import type { StoreValue } from "../../wasm-host/index.js";

/** Entries kept before the cache starts over (a member's hash is 32 to 256 bytes). */
const MAX_ENTRIES = 20_000;
/** Values longer than this (bytes, characters) are hashed each time: rarely repeated, costly to key. */
const MAX_VALUE_LENGTH = 96;

export class MemberHashCache<T> {
  private readonly entries = new Map<string, T>();

  /** The hash of member (`name`, `value`): kept, or `compute()`d and kept. */
  get(name: string, value: StoreValue, compute: () => T): T {
    const key = memberKey(name, value);
    if (key === null) return compute();
    let hash = this.entries.get(key);
    if (hash === undefined) {
      hash = compute();
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, hash);
    }
    return hash;
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
