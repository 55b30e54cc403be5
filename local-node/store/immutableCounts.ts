// Rows of an immutable table as of a block, counted once and then advanced by counting only the rows
// above the last count. The status API asks at every poll (graph-cli and the scripts poll a few times a
// second while a deployment indexes), and a full count scans the table: about 12 ms a poll at 100,000
// rows on PGlite, on the thread that commits. graph-node keeps a counter next to its block pointer;
// here each commit moves the count it can (`committed`), and a poll counts only what none moved.
import type { Queryable } from "./database.js";
import type { TableLayout } from "./layout.js";

export class ImmutableRowCounts {
  // Bumped when rows may have gone (a revert): a count taken before it is never used again.
  private generation = 0;
  private readonly counts = new Map<string, { generation: number; block: number; rows: number }>();
  // Per deployment, the last block a write committed through, as this process saw it.
  private readonly committedThrough = new Map<string, number>();

  /** Rows below a counted block were deleted: every table is counted afresh. */
  invalidate(): void {
    this.generation++;
    this.counts.clear();
    this.committedThrough.clear();
  }

  /** The generation to hand to `committed` for a write that starts now. */
  current(): number {
    return this.generation;
  }

  /**
   * A write committed through `block` and added `inserted` rows to the deployment's immutable tables
   * (graph-node moves its entity count with the pointer the same way). A count taken at the block the
   * previous write ended with moves to `block` without a scan; any other is left to `rowsAt`.
   */
  committed(deployment: string, block: number, inserted: ReadonlyMap<TableLayout, number>, generation: number): void {
    if (generation !== this.generation) return;
    const previous = this.committedThrough.get(deployment);
    this.committedThrough.set(deployment, block);
    if (previous === undefined) return;
    for (const [table, rows] of inserted) {
      const known = this.counts.get(table.qualified);
      if (known && known.generation === generation && known.block === previous) this.counts.set(table.qualified, { generation, block, rows: known.rows + rows });
    }
  }

  /**
   * Rows with `block$ <= block`. `block` must be a committed block pointer: rows at or below it are
   * never added afterwards (commits go in block order), only removed by a revert (`invalidate`).
   */
  async rowsAt(q: Queryable, table: TableLayout, block: number): Promise<number> {
    const generation = this.generation;
    const known = this.counts.get(table.qualified);
    const from = known && known.generation === generation && known.block <= block ? known : null;
    const [row] = from
      ? await q.query<{ n: string }>(`select count(*)::text as n from ${table.qualified} t where t."block$" > $1 and t."block$" <= $2`, [from.block, block])
      : await q.query<{ n: string }>(`select count(*)::text as n from ${table.qualified} t where t."block$" <= $1`, [block]);
    const rows = (from?.rows ?? 0) + Number(row?.n ?? 0);
    if (generation === this.generation && (!known || known.block <= block)) this.counts.set(table.qualified, { generation, block, rows });
    return rows;
  }
}
