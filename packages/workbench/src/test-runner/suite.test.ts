import { describe, expect, it } from "vitest";
import type { Registration } from "./matchstick/state.js";
import { buildGroup, countTests, newRegistrations, type GroupNode, type TestNode } from "./suite.js";

const reg = (role: Registration["role"], funcIdx: number, name = "", shouldFail = false): Registration => ({ name, shouldFail, funcIdx, role });

describe("buildGroup", () => {
  it("orders beforeEach outer-first and afterEach inner-first, expanding describes", async () => {
    const top = [reg("beforeEach", 1), reg("afterEach", 2), reg("describe", 10, "outer"), reg("test", 3, "top test", true)];
    const bodies = new Map<number, Registration[]>([
      [10, [reg("beforeEach", 11), reg("afterEach", 12), reg("beforeAll", 13), reg("describe", 20, "inner")]],
      [20, [reg("beforeEach", 21), reg("afterEach", 22), reg("test", 23, "deep")]],
    ]);
    const root = await buildGroup("", top, async (idx) => bodies.get(idx) ?? []);
    const outer = root.children[0] as GroupNode;
    const inner = outer.children[0] as GroupNode;
    const deep = inner.children[0] as TestNode;
    expect(outer.beforeAll).toEqual([13]);
    expect(deep.beforeEach).toEqual([1, 11, 21]);
    expect(deep.afterEach).toEqual([22, 12, 2]);
    const topTest = root.children[1] as TestNode;
    expect(topTest).toMatchObject({ name: "top test", shouldFail: true, beforeEach: [1], afterEach: [2] });
    expect(countTests(root)).toBe(2);
  });

  it("keeps only what a describe body added, as Matchstick's diff", () => {
    const before = [reg("test", 1, "a")];
    expect(newRegistrations(before, [...before, reg("test", 1, "a"), reg("test", 2, "b")])).toEqual([reg("test", 2, "b")]);
  });
});
