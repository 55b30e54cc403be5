import { describe, expect, it } from "vitest";
import { createHeapCeiling, type HeapCeilingOptions, type HeapProbe } from "./heapCeiling.js";

const MiB = 1024 * 1024;

/**
 * A ceiling over a heap whose use the test sets. `at(usedMiB, survivesMiB)` sets the heap's use and what a
 * collection would leave, runs the check, and returns how many collections there have been.
 */
function ceilingOver(options: HeapCeilingOptions) {
  const heap = { usedMiB: 0, survivesMiB: 0, collections: 0 };
  const probe: HeapProbe = {
    usedBytes: () => heap.usedMiB * MiB,
    collect: () => {
      heap.collections++;
      heap.usedMiB = heap.survivesMiB;
    },
  };
  const check = createHeapCeiling(options, probe);
  return (usedMiB: number, survivesMiB = heap.survivesMiB): number => {
    heap.usedMiB = usedMiB;
    heap.survivesMiB = survivesMiB;
    check();
    return heap.collections;
  };
}

describe("createHeapCeiling", () => {
  it("collects only once the heap reaches the floor", () => {
    const at = ceilingOver({ floorMiB: 64 });
    expect(at(63)).toBe(0);
    expect(at(64, 20)).toBe(1);
  });

  it("sets the next ceiling at twice what survived by default, never under the floor", () => {
    const at = ceilingOver({ floorMiB: 32 });
    at(40, 30);
    expect(at(59)).toBe(1);
    expect(at(60, 5)).toBe(2);
    // 2 x 5 is under the floor: the floor holds.
    expect(at(31)).toBe(2);
  });

  it("with a slack, collects once the heap has grown that far past what survived", () => {
    const at = ceilingOver({ floorMiB: 64, growth: 1.5, minSlackMiB: 24 });
    at(64, 40);
    // 1.5 x 40 = 60 is under 40 + 24 = 64 and the floor: the next ceiling is 64.
    expect(at(63)).toBe(1);
    expect(at(64, 200)).toBe(2);
    // A large live heap grows by its factor, not by the slack alone: 300, not 224.
    expect(at(299)).toBe(2);
    expect(at(300)).toBe(3);
  });
});
