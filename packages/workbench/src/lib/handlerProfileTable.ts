// The handler profile (local-node/indexer/handlerProfile.ts) as a text table, for the node's log at the
// end of a catch-up and for the commands that print it (npm start, the dev loop). In lib/ so that a
// command prints it without loading the node.

/** A handler's counters, as the table shows them (the indexer's HandlerProfileRow adds a histogram). */
export interface ProfileTableRow {
  dataSource: string;
  handler: string;
  calls: number;
  /** Wall time in the handler, its store reads and eth_calls included (ms). */
  totalMs: number;
  maxMs: number;
  /** `store.get`, `store.get_in_block` and `loadRelated` calls. */
  storeGets: number;
  storeSets: number;
  storeRemoves: number;
  ethCalls: number;
  ethCallMs: number;
  /** eth_calls answered without asking the chain (the chain cache). */
  ethCallsCached: number;
}

const HEADER = ["data source", "handler", "calls", "total ms", "mean ms", "max ms", "get", "set", "remove", "eth_call", "eth_call ms", "cached"];
/** Columns after the two names are numbers, right-aligned. */
const NAMES = 2;

const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(2));

/** A header, then one line per handler, most total time first. */
export function formatProfileTable(rows: readonly ProfileTableRow[]): string {
  if (rows.length === 0) return "no handler ran";
  const sorted = [...rows].sort((a, b) => b.totalMs - a.totalMs);
  const cells = sorted.map((r) => [
    r.dataSource,
    r.handler,
    String(r.calls),
    ms(r.totalMs),
    ms(r.calls ? r.totalMs / r.calls : 0),
    ms(r.maxMs),
    String(r.storeGets),
    String(r.storeSets),
    String(r.storeRemoves),
    String(r.ethCalls),
    ms(r.ethCallMs),
    r.ethCalls ? `${Math.round((100 * r.ethCallsCached) / r.ethCalls)}%` : "-",
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => c.map((v, i) => (i < NAMES ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ").trimEnd();
  return [line(HEADER), ...cells.map(line)].join("\n");
}
