import { afterEach, describe, expect, it, vi } from "vitest";
import { createLimiter } from "./limiter.js";

afterEach(() => void vi.useRealTimers());

describe("createLimiter", () => {
  it("lets maxConcurrent requests in at once and the next when one is released", async () => {
    const limiter = createLimiter({ maxConcurrent: 2 });
    const a = await limiter.acquire();
    await limiter.acquire();
    let third = false;
    const pending = limiter.acquire().then((release) => ((third = true), release));
    await Promise.resolve();
    expect(third).toBe(false);
    expect(limiter.waiting).toBe(1);
    a();
    a(); // a second release of the same slot frees nothing more
    await pending;
    expect(third).toBe(true);
    expect(limiter.inFlight).toBe(2);
  });

  it("starts no more than requestsPerSecond, one second's worth at once", async () => {
    vi.useFakeTimers();
    const limiter = createLimiter({ requestsPerSecond: 5 });
    const started: number[] = [];
    const t0 = Date.now();
    const all = Array.from({ length: 15 }, () => limiter.acquire().then((release) => (started.push(Date.now() - t0), release())));
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(all);
    expect(started.slice(0, 5).every((t) => t === 0)).toBe(true);
    // The other ten at 5 per second: the last about 2 s in.
    expect(started[14]).toBeGreaterThanOrEqual(1_950);
    expect(started[14]).toBeLessThanOrEqual(2_100);
  });

  it("holds every request until a pause (Retry-After) ends, and gives up a waiter whose signal aborts", async () => {
    vi.useFakeTimers();
    const limiter = createLimiter();
    limiter.pauseUntil(Date.now() + 1_000);
    let at = -1;
    const t0 = Date.now();
    const waiting = limiter.acquire().then(() => (at = Date.now() - t0));
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal).catch((e: unknown) => e);
    controller.abort(new Error("hedge lost"));
    expect(((await aborted) as Error).message).toBe("hedge lost");
    await vi.advanceTimersByTimeAsync(1_100);
    await waiting;
    expect(at).toBeGreaterThanOrEqual(1_000);
    expect(limiter.waiting).toBe(0);
  });
});
