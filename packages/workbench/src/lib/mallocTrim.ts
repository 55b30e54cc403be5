// Gives the pages glibc's malloc has freed back to the system, on a timer, as jemalloc's background
// thread does. glibc returns memory only from the top of a heap; a page freed between live blocks stays
// resident until `malloc_trim` walks the heaps. In the local node those pages are V8's compiler zones
// (TurboFan compiling PGlite's hot functions on a helper thread), the answers and COPY text that passed
// through, and the threads' bookkeeping: tens of MiB at the peak that hold nothing. The call runs on
// libuv's thread pool (koffi's async call), so no JavaScript thread waits for it.
import { libcFunction } from "./libc.js";

export interface MallocTrim {
  /** Why the process cannot trim (not glibc), or null when it trims. */
  readonly unsupported: string | null;
  stop(): void;
}

type TrimCall = { async(pad: number, done: (err: unknown, result: number) => void): void };

export function startMallocTrim(options: { intervalMs: number }): MallocTrim {
  const trim = libcFunction<TrimCall>("int malloc_trim(size_t pad)");
  if (typeof trim === "string") return { unsupported: trim, stop() {} };
  let running = false;
  const timer = setInterval(() => {
    // One at a time: a slow trim (the heaps locked by busy threads) is not queued behind another.
    if (running) return;
    running = true;
    trim.async(0, () => {
      running = false;
    });
  }, options.intervalMs).unref();
  return { unsupported: null, stop: () => clearInterval(timer) };
}
