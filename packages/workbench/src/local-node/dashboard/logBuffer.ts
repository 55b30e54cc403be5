// The node's recent log lines, for the dashboard: a ring of the last lines the node wrote, each with the
// deployment it names (the indexer puts `<deployment id>: ` in front of a deployment's lines).
import type { LogLevel } from "../../wasm-host/index.js";

export interface LogLine {
  /** ISO time. */
  time: string;
  level: LogLevel;
  /** The deployment the line is about, or null for the node's own lines. */
  deployment: string | null;
  message: string;
}

export interface LogBuffer {
  add(level: LogLevel, message: string): void;
  /** Oldest first. */
  lines(): LogLine[];
}

const DEPLOYMENT_PREFIX = /^(Qm[1-9A-HJ-NP-Za-km-z]{44}): /;

export function createLogBuffer(capacity = 500): LogBuffer {
  const ring: LogLine[] = [];
  let next = 0;
  return {
    add(level, message) {
      const match = DEPLOYMENT_PREFIX.exec(message);
      const line: LogLine = { time: new Date().toISOString(), level, deployment: match ? match[1]! : null, message: match ? message.slice(match[0].length) : message };
      if (ring.length < capacity) ring.push(line);
      else ring[next] = line;
      next = (next + 1) % capacity;
    },
    lines: () => (ring.length < capacity ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)]),
  };
}
