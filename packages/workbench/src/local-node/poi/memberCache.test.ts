import { describe, expect, it } from "vitest";
import type { StoreValue } from "../../wasm-host/index.js";
import { MemberHashCache } from "./memberCache.js";

const bytes = (n: number): StoreValue => ({ kind: "Bytes", value: new Uint8Array([n >> 16, n >> 8, n & 255]) });

describe("MemberHashCache", () => {
  it("keeps recurring members through a flood of members seen once, in bounded memory", () => {
    const cache = new MemberHashCache<string>();
    let computed = 0;
    const hashOf = (name: string, value: StoreValue) => cache.get(name, value, () => `${name}:${++computed}`);
    const owners = Array.from({ length: 10 }, (_, i) => hashOf("owner", bytes(i)));
    // 100,000 entities: an owner out of ten, and a spender and an id never seen again.
    for (let i = 0; i < 100_000; i++) {
      expect(hashOf("owner", bytes(i % 10))).toBe(owners[i % 10]);
      hashOf("spender", bytes(1_000_000 + i));
      hashOf("id", { kind: "String", value: `0x${i.toString(16)}-0` });
    }
    // Each owner hashed once; every other member once each.
    expect(computed).toBe(10 + 2 * 100_000);
    expect(cache.size).toBeLessThanOrEqual(2 * 2_048);
  });

  it("tells members apart by kind, name and value, and keeps no key for long values", () => {
    const cache = new MemberHashCache<number>();
    let computed = 0;
    const next = () => ++computed;
    expect(cache.get("a", { kind: "String", value: "1" }, next)).toBe(1);
    expect(cache.get("a", { kind: "BigInt", value: 1n } as StoreValue, next)).toBe(2);
    expect(cache.get("b", { kind: "String", value: "1" }, next)).toBe(3);
    expect(cache.get("a", { kind: "String", value: "1" }, next)).toBe(1);
    const long: StoreValue = { kind: "String", value: "x".repeat(97) };
    expect(cache.get("a", long, next)).toBe(4);
    expect(cache.get("a", long, next)).toBe(5);
  });
});
