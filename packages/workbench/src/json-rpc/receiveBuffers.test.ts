import { afterEach, describe, expect, it, vi } from "vitest";
import { giveBackReceiveBuffer, keptReceiveBytes, takeReceiveBuffer } from "./receiveBuffers.js";

afterEach(() => void vi.useRealTimers());

describe("receive buffers", () => {
  it("are reused, at least as large as asked for, and let go after a quiet while", () => {
    vi.useFakeTimers();
    const first = takeReceiveBuffer(200_000);
    expect(first.length).toBeGreaterThanOrEqual(200_000);
    giveBackReceiveBuffer(first);
    expect(takeReceiveBuffer(100_000)).toBe(first);
    giveBackReceiveBuffer(first);
    expect(keptReceiveBytes()).toBe(first.length);
    // More than are kept: the smallest go.
    const more = [300_000, 70_000, 400_000, 500_000].map((n) => takeReceiveBuffer(n));
    for (const b of more) giveBackReceiveBuffer(b);
    expect(keptReceiveBytes()).toBe(first.length + more[0]!.length + more[2]!.length + more[3]!.length);
    vi.advanceTimersByTime(2_500);
    expect(keptReceiveBytes()).toBe(0);
    expect(takeReceiveBuffer(100_000)).not.toBe(first);
  });
});
