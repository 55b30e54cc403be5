// A provider's sending limits: requests in flight at once, requests per second (a token bucket that
// holds one second's worth), and a pause the provider asked for (Retry-After). Waiters are served in order.

export interface LimiterOptions {
  /** Requests in flight at once (default 32). */
  maxConcurrent?: number;
  /** Requests started per second; unlimited unless set. */
  requestsPerSecond?: number;
}

export interface Limiter {
  /** Resolves with a release function once a request may start; rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** No request starts before `until` (epoch ms); a later pause wins over an earlier one. */
  pauseUntil(until: number): void;
  readonly inFlight: number;
  readonly waiting: number;
  readonly pausedUntil: number;
}

export function createLimiter(options: LimiterOptions = {}): Limiter {
  const maxConcurrent = Math.max(1, options.maxConcurrent ?? 32);
  const rps = options.requestsPerSecond && options.requestsPerSecond > 0 ? options.requestsPerSecond : null;
  const capacity = rps === null ? Number.POSITIVE_INFINITY : Math.max(1, rps);
  let tokens = capacity;
  let refilledAt = Date.now();
  let inFlight = 0;
  let paused = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const queue: { grant: (release: () => void) => void }[] = [];

  function refill(now: number): void {
    if (rps === null) return;
    tokens = Math.min(capacity, tokens + ((now - refilledAt) / 1000) * rps);
    refilledAt = now;
  }

  function release(): void {
    inFlight--;
    pump();
  }

  function pump(): void {
    const now = Date.now();
    refill(now);
    while (queue.length > 0 && inFlight < maxConcurrent && now >= paused && tokens >= 1) {
      const next = queue.shift()!;
      inFlight++;
      if (rps !== null) tokens--;
      let released = false;
      next.grant(() => {
        if (released) return;
        released = true;
        release();
      });
    }
    if (queue.length === 0 || inFlight >= maxConcurrent || timer) return;
    // Waiting for the pause to end or a token to come back: wake then.
    const wait = Math.max(now < paused ? paused - now : 0, tokens < 1 && rps !== null ? ((1 - tokens) / rps) * 1000 : 0);
    timer = setTimeout(() => {
      timer = null;
      pump();
    }, Math.max(1, Math.ceil(wait)));
    timer.unref?.();
  }

  return {
    acquire(signal) {
      return new Promise((resolve, reject) => {
        const entry = {
          grant: (rel: () => void) => {
            signal?.removeEventListener("abort", onAbort);
            if (signal?.aborted) {
              rel();
              reject(signal.reason);
            } else resolve(rel);
          },
        };
        const onAbort = () => {
          const at = queue.indexOf(entry);
          if (at >= 0) queue.splice(at, 1);
          reject(signal!.reason);
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(entry);
        pump();
      });
    },
    pauseUntil(until) {
      if (until <= paused) return;
      paused = until;
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      pump();
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return queue.length;
    },
    get pausedUntil() {
      return paused;
    },
  };
}
