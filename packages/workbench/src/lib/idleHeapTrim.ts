// Gives a thread's empty heap pages back once it has been idle for a while. After a burst of work (a
// deployment catching up) V8 keeps the pages its collections emptied, ready for the next burst: on the
// local node about 100 MiB of resident memory holding nothing while it waits for new blocks. Only a
// last-resort collection returns them (lib/collectGarbage.ts), and only a heap grown past `aboveMiB`
// is worth one: a thread that idles between small blocks at the chain's head does not pay it each time.
import { getHeapStatistics } from "node:v8";
import { collectGarbage } from "./collectGarbage.js";

/** How long a thread stays idle before its heap is trimmed: the committing and handlers' threads both wait this long. */
export const IDLE_TRIM_QUIET_MS = 2_000;

export interface IdleHeapTrim {
  /** Work is under way: the idle wait starts again from now. */
  busy(): void;
}

export function createIdleHeapTrim(options: { quietMs: number; aboveMiB: number }): IdleHeapTrim {
  const above = options.aboveMiB * 1024 * 1024;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const trim = (): void => {
    timer = null;
    if (getHeapStatistics().total_heap_size > above) collectGarbage("last-resort");
  };
  return {
    busy() {
      // It never keeps a process alive on its own.
      if (timer) timer.refresh();
      else timer = setTimeout(trim, options.quietMs).unref();
    },
  };
}
