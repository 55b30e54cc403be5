// Takes log lines as they happen (synchronously: a logger must not wait) and writes them to the store
// in batches, as graph-node's log drains buffer theirs. A read flushes first, so `_logs` sees every
// line logged before the query arrived.
import type { LogRecord, SubgraphLogEntry, SubgraphLogLevel } from "./logTypes.js";

export type { LogRecord };

export interface LogRecorder {
  record(deployment: string, entry: LogRecord): void;
  /** Writes what is buffered; resolves once it is in the store. */
  flush(): Promise<void>;
}

export interface LogRecorderOptions {
  write(entries: SubgraphLogEntry[]): Promise<void>;
  /** Told when a batch could not be written (it is dropped: logs must not stop indexing). */
  onError?(error: unknown): void;
  /** Milliseconds a line may wait before its batch is written (default 200). */
  flushMs?: number;
}

export function createLogRecorder(options: LogRecorderOptions): LogRecorder {
  const flushMs = options.flushMs ?? 200;
  const clock = createTimestampClock();
  let buffered: SubgraphLogEntry[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = buffered;
    buffered = [];
    // One batch after another, so that rows go in in the order they were logged.
    writing = writing.then(() => (batch.length === 0 ? undefined : options.write(batch))).catch((error: unknown) => options.onError?.(error));
    return writing;
  }

  return {
    record(deployment, entry) {
      const timestamp = clock();
      buffered.push({
        id: `${deployment}-${timestamp}`,
        subgraphId: deployment,
        timestamp,
        level: entry.level,
        text: entry.text,
        arguments: entry.arguments ?? [],
        meta: { module: entry.module, line: 0, column: 0 },
      });
      if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    flush,
  };
}

/**
 * RFC 3339 timestamps with nanoseconds (graph-node's `SecondsFormat::Nanos`), strictly increasing: the
 * wall clock in milliseconds plus the monotonic clock's sub-millisecond part, bumped by a nanosecond when
 * two lines would share one (graph-node's entry id is the deployment and the timestamp, so it must differ).
 */
export function createTimestampClock(now: () => bigint = () => BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)): () => string {
  let last = 0n;
  return () => {
    let ns = now();
    if (ns <= last) ns = last + 1n;
    last = ns;
    const seconds = new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
    return `${seconds}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}Z`;
  };
}
