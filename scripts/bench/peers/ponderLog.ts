// Ponder's log (`--log-format json`: one JSON object a line, `time` in ms since the epoch, `msg`): where
// its backfill starts and ends, the indexing figure the peer bench compares with our node's.

interface PonderLine {
  time: number;
  msg: string;
  port?: number;
}

function linesOf(log: string): PonderLine[] {
  const out: PonderLine[] = [];
  for (const text of log.split("\n")) {
    if (!text.startsWith("{")) continue;
    try {
      const line = JSON.parse(text) as Partial<PonderLine>;
      if (typeof line.time === "number" && typeof line.msg === "string") out.push({ time: line.time, msg: line.msg, ...(typeof line.port === "number" ? { port: line.port } : {}) });
    } catch {
      // Not one of Ponder's log lines (a stray print).
    }
  }
  return out;
}

/**
 * Seconds from "Started backfill indexing" to "Completed backfill indexing" (0.16 says "... across all
 * chains" in its default omnichain ordering): its RPC sync and its indexing functions together, as our
 * node's "deployed" to "synced" covers fetching and mapping.
 */
export function ponderBackfillSeconds(log: string): number {
  const lines = linesOf(log);
  const start = lines.find((l) => l.msg === "Started backfill indexing");
  const end = lines.find((l) => l.msg.startsWith("Completed backfill indexing") && start !== undefined && l.time >= start.time);
  if (!start || !end) throw new Error(`Ponder's log lacks its backfill start or end lines:\n${log.slice(-2000)}`);
  return (end.time - start.time) / 1000;
}

/** The port Ponder's HTTP server took: the one asked for, or the next free one when that was taken. */
export function ponderServerPort(log: string): number | null {
  return linesOf(log).find((l) => l.msg === "Created HTTP server")?.port ?? null;
}

/** The messages of Ponder's error lines (level 50 and up), for a failure report. */
export function ponderErrors(log: string): string[] {
  const out: string[] = [];
  for (const text of log.split("\n")) {
    if (!text.startsWith("{")) continue;
    try {
      const line = JSON.parse(text) as { level?: number; msg?: string; error?: { message?: string } };
      if ((line.level ?? 0) >= 50) out.push([line.msg, line.error?.message].filter(Boolean).join(": "));
    } catch {
      // Not JSON.
    }
  }
  return out;
}
