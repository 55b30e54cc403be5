import { describe, expect, it } from "vitest";
import { createRecentBlocks } from "./reorg.js";

const ptr = (n: number, tag = "a") => ({ number: n, hash: `0x${tag}${n}` });

describe("createRecentBlocks", () => {
  it("keeps the newest blocks first, up to its capacity", () => {
    const recent = createRecentBlocks(3);
    for (let n = 1; n <= 5; n++) recent.add(ptr(n));
    expect(recent.list().map((p) => p.number)).toEqual([5, 4, 3]);
  });

  it("replaces blocks at and above a re-added number (a new fork) and truncates after a revert", () => {
    const recent = createRecentBlocks(10);
    for (let n = 1; n <= 5; n++) recent.add(ptr(n));
    recent.add(ptr(4, "b"));
    expect(recent.list()).toEqual([ptr(4, "b"), ptr(3), ptr(2), ptr(1)]);
    recent.truncateAbove(2);
    expect(recent.list()).toEqual([ptr(2), ptr(1)]);
    recent.clear();
    expect(recent.list()).toEqual([]);
  });
});
