import { describe, expect, it } from "vitest";
import { createHeapCeiling, type HeapProbe } from "./heapCeiling.js";

const MiB = 1024 * 1024;

/** A heap whose use the test sets; a collection leaves `survives` MiB. */
function fakeHeap() {
  const heap = { usedMiB: 0, survives: 0, collections: 0 };
  const probe: HeapProbe = {
    usedBytes: () => heap.usedMiB * MiB,
    collect: () => {
      heap.collections++;
      heap.usedMiB = heap.survives;
    },
  };
  return { heap, probe };
}

describe("createHeapCeiling", () => {
  it("collects only once the heap reaches the floor", () => {
    const { heap, probe } = fakeHeap();
    const check = createHeapCeiling({ floorMiB: 64 }, probe);
    heap.usedMiB = 63;
    check();
    expect(heap.collections).toBe(0);
    heap.usedMiB = 64;
    heap.survives = 20;
    check();
    expect(heap.collections).toBe(1);
  });

  it("sets the next ceiling at twice what survived by default, never under the floor", () => {
    const { heap, probe } = fakeHeap();
    const check = createHeapCeiling({ floorMiB: 32 }, probe);
    heap.usedMiB = 40;
    heap.survives = 30;
    check();
    heap.usedMiB = 59;
    check();
    expect(heap.collections).toBe(1);
    heap.usedMiB = 60;
    heap.survives = 5;
    check();
    expect(heap.collections).toBe(2);
    // 2 x 5 is under the floor: the floor holds.
    heap.usedMiB = 31;
    check();
    expect(heap.collections).toBe(2);
  });

  it("with a slack, collects once the heap has grown that far past what survived", () => {
    const { heap, probe } = fakeHeap();
    const check = createHeapCeiling({ floorMiB: 64, growth: 1.5, minSlackMiB: 24 }, probe);
    heap.usedMiB = 64;
    heap.survives = 40;
    check();
    // 1.5 x 40 = 60 is under 40 + 24 = 64 and the floor: the next ceiling is 64.
    heap.usedMiB = 63;
    check();
    expect(heap.collections).toBe(1);
    heap.usedMiB = 64;
    heap.survives = 200;
    check();
    expect(heap.collections).toBe(2);
    // A large live heap grows by its factor, not by the slack alone: 300, not 224.
    heap.usedMiB = 299;
    check();
    expect(heap.collections).toBe(2);
    heap.usedMiB = 300;
    check();
    expect(heap.collections).toBe(3);
  });
});
