// What the Subsquid processor says of itself. Its log (JSON lines on stderr when that is not a terminal:
// `time` in ms since the epoch, `level` 0 trace to 5 fatal, `ns`, `msg`, `err` on failures): where its
// indexing starts, and its errors for a failure report. Its Prometheus metrics: the last block it committed.

interface SubsquidLine {
  time: number;
  level: number;
  msg: string;
  err?: { message?: string; stack?: string };
}

const ERROR_LEVEL = 4;

function linesOf(log: string): SubsquidLine[] {
  const out: SubsquidLine[] = [];
  for (const text of log.split("\n")) {
    if (!text.startsWith("{")) continue;
    try {
      const line = JSON.parse(text) as Partial<SubsquidLine>;
      if (typeof line.time === "number" && typeof line.level === "number" && typeof line.msg === "string") out.push(line as SubsquidLine);
    } catch {
      // Not one of the processor's log lines (a stray print).
    }
  }
  return out;
}

/**
 * When the processor started on its blocks: its "processing blocks from <n>" line, written once it read
 * its state from the database and before its first RPC request for data (ms since the epoch).
 */
export function subsquidIndexingStart(log: string): number {
  const start = linesOf(log).find((l) => /^processing blocks from \d+/.test(l.msg));
  if (!start) throw new Error(`the Subsquid processor's log lacks its "processing blocks from" line:\n${log.slice(-2000)}`);
  return start.time;
}

/** The processor's own progress lines ("<block> / <head>, rate: ... blocks/sec, ..."), the last one. */
export function subsquidLastProgress(log: string): string | null {
  return linesOf(log).filter((l) => /blocks\/sec/.test(l.msg)).at(-1)?.msg ?? null;
}

/** The messages of its error and fatal lines, each with its error's message. */
export function subsquidErrors(log: string): string[] {
  return linesOf(log)
    .filter((l) => l.level >= ERROR_LEVEL)
    .map((l) => [l.msg, l.err?.message ?? l.err?.stack?.split("\n")[0]].filter(Boolean).join(": "));
}

/**
 * `sqd_processor_last_block` from its /metrics/sqd_processor_last_block text, or null when absent: the
 * runner sets it once a batch's transaction (rows and status row together) has committed.
 */
export function subsquidLastBlock(metrics: string): number | null {
  const m = /^sqd_processor_last_block(?:\{[^}]*\})? (-?\d+)$/m.exec(metrics);
  return m ? Number(m[1]) : null;
}
