// Each deployment's log entries, as graph-node's log store keeps them for `_logs` (its `file` backend:
// one JSON document per entry with id, subgraphId, an RFC 3339 timestamp in nanoseconds, level, text,
// arguments and meta). Here they are rows in the node's store, so they last as the data does.
import type { Queryable } from "./database.js";
import type { StoreState } from "./storeState.js";

export const SUBGRAPH_LOGS_SQL = `
create table if not exists subgraphs.log_entry (
  deployment text not null,
  seq bigserial,
  timestamp text not null,
  level text not null,
  text text not null,
  arguments jsonb not null,
  module text not null,
  line int4 not null,
  col int4 not null,
  primary key (deployment, seq)
);
create index if not exists log_entry_deployment_timestamp on subgraphs.log_entry (deployment, timestamp);
`;

import type { SubgraphLogEntry, SubgraphLogLevel, SubgraphLogQuery } from "./logTypes.js";

export type { SubgraphLogEntry, SubgraphLogLevel, SubgraphLogQuery } from "./logTypes.js";

export async function appendLogEntries(q: Queryable, entries: SubgraphLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const column = <K extends keyof SubgraphLogEntry>(key: K): SubgraphLogEntry[K][] => entries.map((e) => e[key]);
  await q.query(
    `insert into subgraphs.log_entry (deployment, timestamp, level, text, arguments, module, line, col)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::int4[], $8::int4[])`,
    [
      column("subgraphId"), column("timestamp"), column("level"), column("text"),
      entries.map((e) => JSON.stringify(e.arguments)),
      entries.map((e) => e.meta.module), entries.map((e) => e.meta.line), entries.map((e) => e.meta.column),
    ],
  );
}

export async function queryLogEntries({ db }: StoreState, deployment: string, query: SubgraphLogQuery): Promise<SubgraphLogEntry[]> {
  const params: unknown[] = [deployment];
  const where = ["deployment = $1"];
  const param = (value: unknown): string => (params.push(value), `$${params.length}`);
  if (query.level !== null) where.push(`level = ${param(query.level)}`);
  // Byte order, as Rust compares strings.
  if (query.from !== null) where.push(`timestamp collate "C" >= ${param(query.from)}`);
  if (query.to !== null) where.push(`timestamp collate "C" <= ${param(query.to)}`);
  if (query.search !== null) where.push(`strpos(lower(text), lower(${param(query.search)})) > 0`);
  const direction = query.orderDirection === "asc" ? "asc" : "desc";
  const rows = await db.query<{ timestamp: string; level: string; text: string; arguments: unknown; module: string; line: number; col: number }>(
    `select timestamp, level, text, arguments, module, line, col from subgraphs.log_entry
     where ${where.join(" and ")} order by timestamp collate "C" ${direction}, seq ${direction}
     limit ${param(query.first)} offset ${param(query.skip)}`,
    params,
  );
  return rows.map((r) => ({
    id: `${deployment}-${r.timestamp}`,
    subgraphId: deployment,
    timestamp: r.timestamp,
    level: r.level as SubgraphLogLevel,
    text: r.text,
    arguments: (typeof r.arguments === "string" ? JSON.parse(r.arguments) : r.arguments) as [string, string][],
    meta: { module: r.module, line: r.line, column: r.col },
  }));
}
