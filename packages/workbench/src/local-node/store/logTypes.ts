// The shapes of a deployment's log entries (graph-node's log store), apart from the code that writes and
// reads them, so the store's types can name them without importing that code.

/** graph-node's levels (slog's, trace aside: its log store never keeps trace), lowercase as it stores them. */
export type SubgraphLogLevel = "critical" | "error" | "warn" | "info" | "debug";

export interface SubgraphLogEntry {
  /** `<deployment>-<timestamp>`, as graph-node builds it. */
  id: string;
  subgraphId: string;
  /** RFC 3339 in UTC with nine fraction digits; unique and increasing within a node. */
  timestamp: string;
  level: SubgraphLogLevel;
  text: string;
  arguments: [string, string][];
  meta: { module: string; line: number; column: number };
}

/** What `_logs` asks for, already validated (graph-node's LogQuery). */
export interface SubgraphLogQuery {
  level: SubgraphLogLevel | null;
  /** Inclusive bounds, compared with the stored timestamps as text, as graph-node's file store does. */
  from: string | null;
  to: string | null;
  /** Case-insensitive substring of the text. */
  search: string | null;
  first: number;
  skip: number;
  orderDirection: "asc" | "desc";
}

export interface LogRecord {
  level: SubgraphLogLevel;
  text: string;
  /** graph-node's structured key-value pairs of the log call. */
  arguments?: [string, string][];
  /** What logged it (graph-node: the Rust module of the logging call). */
  module: string;
}
