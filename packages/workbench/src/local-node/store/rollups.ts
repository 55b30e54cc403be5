// graph-node's rollups (relational/rollup.rs): when a written block's time falls into a later bucket
// than the last rollup's, the bucket the last rollup was in is aggregated from the timeseries rows in
// it, into each aggregation's table for that interval, as rows of that block (`block$`). Dimensions
// group; `first`/`last` order by the timeseries id; cumulative aggregates combine with the group's
// latest earlier row. The last rollup's time is kept in memory, as graph-node's LastRollupTracker: at
// start and after a revert it is derived from the newest bucket (when there is none, at start the
// first written block's time serves, and a revert keeps what it had).
import type { Queryable } from "./database.js";
import { INTERVAL_SECONDS, rewriteAggregateArg, type AggregateDef, type AggregationInterval } from "../../subgraph-schema/index.js";
import { StoreError } from "./errors.js";
import type { DeploymentLayout, TableLayout } from "./layout.js";

const MICROS = 1_000_000n;

export interface BlockTime {
  block: number;
  /** Microseconds since the epoch. */
  time: bigint;
}

function intervalMicros(interval: AggregationInterval): bigint {
  return BigInt(INTERVAL_SECONDS[interval]) * MICROS;
}

function rollupTables(layout: DeploymentLayout): TableLayout[] {
  const size = (t: TableLayout) => INTERVAL_SECONDS[t.aggregation?.interval ?? "hour"];
  return [...layout.tables.values()].filter((t) => t.aggregation).sort((a, b) => size(a) - size(b));
}

/**
 * Rolls up every aggregation for the written blocks, in the write's transaction, from the last rollup's
 * time as the caller tracks it (undefined: not known yet). Answers the new last rollup's time, for the
 * caller to keep once the transaction is through.
 */
export async function rollUp(tx: Queryable, layout: DeploymentLayout, known: bigint | undefined, blocks: BlockTime[]): Promise<bigint | undefined> {
  const rollups = rollupTables(layout);
  if (rollups.length === 0 || blocks.length === 0) return known;
  let last = known ?? (await newestBucketEnd(tx, rollups)) ?? blocks.reduce((min, b) => (b.time < min ? b.time : min), blocks[0]?.time ?? 0n);
  for (const { block, time } of blocks) {
    for (const table of rollups) {
      const size = intervalMicros(table.aggregation?.interval ?? "hour");
      const start = (last / size) * size;
      // Only the bucket the last rollup was in: later ones saw no writes (graph-node's reasoning).
      if (start + size > time) continue;
      await tx.query(rollupSql(layout, table), [String(start), String(start + size), block]);
    }
    last = time;
  }
  return last;
}

/** After a revert: the newest remaining bucket's end, or what the tracker had (graph-node's LastRollupTracker). */
export async function lastRollupAfterRevert(tx: Queryable, layout: DeploymentLayout, known: bigint | undefined): Promise<bigint | undefined> {
  const rollups = rollupTables(layout);
  if (rollups.length === 0) return known;
  return (await newestBucketEnd(tx, rollups)) ?? known;
}

/** graph-node's `last_rollup`: the newest bucket's start, one interval and a second later. */
async function newestBucketEnd(tx: Queryable, rollups: TableLayout[]): Promise<bigint | null> {
  const parts = rollups.map((t) => `select max("timestamp") + ${intervalMicros(t.aggregation?.interval ?? "hour") + MICROS} as l from ${t.qualified}`);
  const [row] = await tx.query<{ l: string | null }>(`select max(l)::text as l from (${parts.join(" union all ")}) a`);
  return row?.l == null ? null : BigInt(row.l);
}

/**
 * graph-node's `current: include`: the aggregation table's rows and, computed from the timeseries rows
 * not rolled up yet (from the table's newest bucket on, as of the query block `$1`), one in-progress
 * row per group, timestamped with the newest such row's bucket; cumulative aggregates start from the
 * group's latest rolled-up row. Has the table's columns, to stand in for it in a query.
 */
export function withCurrentBucketSql(layout: DeploymentLayout, table: TableLayout): string {
  const parts = rollupParts(layout, table);
  const { source, dims, aggregates, col } = parts;
  const size = intervalMicros(table.aggregation?.interval ?? "hour");
  const ts = `s.${col(source, "timestamp")}`;
  const notRolledUp = `coalesce((select max(${col(table, "timestamp")}) + ${size + MICROS} from ${table.qualified}), -9223372036854775807)`;
  const bucket = bucketSelect(parts, [`max(s.vid) as vid`, `(max(${ts}) / ${size}) * ${size} as ts`, `max(s."block$") as blk`], `${ts} >= ${notRolledUp} and s."block$" <= $1`) + " having count(*) > 0";
  const columns = [col(table, "id"), col(table, "timestamp"), ...dims.map((d) => d.dst), ...aggregates.map((x) => x.dst)];
  const current = ["b.vid", "b.id", "b.ts", ...dims.map((_, i) => `b.d${i}`), ...aggregateValues(parts), "b.blk"].map((v, i) => `${v} as ${["vid", ...columns, `"block$"`][i]}`);
  return `select vid, ${columns.join(", ")}, "block$" from ${table.qualified} union all select ${current.join(", ")} from (${bucket}) b${previousRowJoin(parts, notRolledUp)}`;
}

type RollupParts = ReturnType<typeof rollupParts>;

/** What a rollup reads and writes: the source table, dimension and aggregate columns. */
function rollupParts(layout: DeploymentLayout, table: TableLayout) {
  const agg = table.aggregation;
  if (!agg) throw new StoreError(`${table.entity.name} is not an aggregation table`);
  const source = layout.tables.get(agg.def.source);
  if (!source) throw new StoreError(`aggregation ${agg.def.name}: its source ${agg.def.source} has no table`);
  const col = (t: TableLayout, field: string) => {
    const c = t.columnsByField.get(field);
    if (!c) throw new StoreError(`aggregation ${agg.def.name}: ${t.entity.name} has no column for ${field}`);
    return c.column;
  };
  const dims = agg.def.dimensions.map((f) => ({ src: col(source, f.name), dst: col(table, f.name) }));
  const aggregates = agg.def.aggregates.map((a) => ({ a, dst: col(table, a.field.name), expr: a.arg === null ? null : argSql(a, source, (f) => col(source, f)) }));
  return { table, source, dims, aggregates, col };
}

/**
 * The timeseries rows (`s`) that `where` selects, aggregated per group: the max id, `extra` columns,
 * the dimensions as d0, d1, ... and the aggregates as a0, a1, ...
 */
function bucketSelect({ source, dims, aggregates, col }: RollupParts, extra: string[], where: string): string {
  const columns = [`max(s.${col(source, "id")}) as id`, ...extra, ...dims.map((d, i) => `s.${d.src} as d${i}`), ...aggregates.map((x, i) => `${aggregateOver(x.a, x.expr)} as a${i}`)];
  return `select ${columns.join(", ")} from ${source.qualified} s where ${where}${dims.length ? ` group by ${dims.map((d) => `s.${d.src}`).join(", ")}` : ""}`;
}

/** Each aggregate's value for a bucket row `b`: cumulative ones combined with the group's previous row `p`. */
function aggregateValues({ aggregates }: RollupParts): string[] {
  return aggregates.map((x, i) => (x.a.cumulative ? combine(x.a, `b.a${i}`, `p.${x.dst}`) : `b.a${i}`));
}

/** For cumulative aggregates: each bucket row `b` joined to its group's latest rolled-up row `p` before `before`. */
function previousRowJoin({ table, dims, aggregates, col }: RollupParts, before: string): string {
  if (!aggregates.some((x) => x.a.cumulative)) return "";
  const ts = `p.${col(table, "timestamp")}`;
  return ` left join lateral (select * from ${table.qualified} p where ${ts} < ${before} ${dims.map((d, i) => `and p.${d.dst} = b.d${i}`).join(" ")} order by ${ts} desc limit 1) p on true`;
}

function rollupSql(layout: DeploymentLayout, table: TableLayout): string {
  const parts = rollupParts(layout, table);
  const { source, dims, aggregates, col } = parts;
  const ts = `s.${col(source, "timestamp")}`;
  const bucket = bucketSelect(parts, [], `${ts} >= $1::int8 and ${ts} < $2::int8`);
  const columns = [col(table, "id"), col(table, "timestamp"), ...dims.map((d) => d.dst), ...aggregates.map((x) => x.dst), `"block$"`].join(", ");
  return `insert into ${table.qualified} (${columns})
    select ${["b.id", "$1::int8", ...dims.map((_, i) => `b.d${i}`), ...aggregateValues(parts), "$3::int4"].join(", ")} from (${bucket}) b${previousRowJoin(parts, "$1::int8")} order by b.id`;
}

function argSql(a: AggregateDef, source: TableLayout, column: (field: string) => string): string {
  const fail = (message: string): never => {
    throw new StoreError(message);
  };
  return `(${rewriteAggregateArg(a.arg ?? "", source.entity, (f) => `s.${column(f)}`, fail).sql})`;
}

function aggregateOver(a: AggregateDef, expr: string | null): string {
  switch (a.fn) {
    case "count":
      return "count(*)";
    case "sum":
    case "min":
    case "max":
      return `${a.fn}(${expr})`;
    case "first":
      return `(array_agg(${expr} order by s."id"))[1]`;
    case "last":
      return `(array_agg(${expr} order by s."id" desc))[1]`;
  }
}

/** A cumulative aggregate: this bucket's value combined with the group's previous row. */
function combine(a: AggregateDef, current: string, previous: string): string {
  switch (a.fn) {
    case "count":
    case "sum":
      return `coalesce(${previous}, 0) + ${current}`;
    case "min":
      return `least(${previous}, ${current})`;
    case "max":
      return `greatest(${previous}, ${current})`;
    case "first":
      return `coalesce(${previous}, ${current})`;
    case "last":
      return current;
  }
}
