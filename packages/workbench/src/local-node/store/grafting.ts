// graph-node's grafting, store side: a new deployment starts from its base's data as of the graft block.
// The schemas must be compatible as graph-node's Layout::can_copy_from decides (only tables both have are
// copied; a new non-nullable attribute, a nullable one made non-nullable, another type or an enum that
// loses values is refused). The copy keeps the versions that began by the graft block, reopens those that
// ended after it, and takes the base's data sources, errors and block hashes up to it, its earliest block
// and its history setting. graph-node copies in the background when the deployment starts; here it is
// part of creating the deployment, in one transaction.
import type { ColumnLayout, DeploymentLayout, TableLayout } from "./layout.js";
import { BLOCK_MAX } from "./layout.js";
import type { Queryable } from "./database.js";
import { StoreError } from "./errors.js";
import { earliestBlockSql } from "./metadata.js";
import { copyPoiJournal } from "./poiJournal.js";
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import { fieldTypeText, storageKind } from "../../subgraph-schema/index.js";
import type { BlockPtr } from "./types.js";

export interface GraftSource {
  /** The base deployment's id and its table layout. */
  base: string;
  baseLayout: DeploymentLayout;
  /** The graft block, with its hash on the base's chain. */
  block: BlockPtr;
}

/** graph-node's reasons the base's tables cannot be copied into the new layout; none when they can. */
export function graftIncompatibilities(dst: DeploymentLayout, src: DeploymentLayout): string[] {
  const problems: string[] = [];
  for (const dstTable of dst.tables.values()) {
    const srcTable = src.tables.get(dstTable.entity.name);
    if (!srcTable) continue;
    for (const dstColumn of dstTable.columns) {
      const srcColumn = srcTable.columns.find((c) => c.column === dstColumn.column);
      if (!srcColumn) {
        if (dstColumn.field.nonNull) problems.push(`The attribute ${dstTable.entity.name}.${dstColumn.field.name} is non-nullable, but there is no such attribute in the source`);
        continue;
      }
      const problem = assignable(dstTable.entity.name, dstColumn, dst.schema, srcColumn, src.schema);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

function assignable(entity: string, dst: ColumnLayout, dstSchema: SubgraphSchema, src: ColumnLayout, srcSchema: SubgraphSchema): string | null {
  const what = `The attribute ${entity}.${dst.field.name}`;
  if (dst.field.nonNull && !src.field.nonNull) return `${what} is non-nullable, but the corresponding attribute in the source is nullable`;
  const dstType = dst.field.type;
  const srcType = src.field.type;
  if (dstType.kind === "enum") {
    if (srcType.kind !== "enum") return `${what} is an enum ${fieldTypeText(dst.field)}, but its type in the source is ${fieldTypeText(src.field)}`;
    const allowed = new Set(dstSchema.enums.get(dstType.enum)?.values ?? []);
    const missing = (srcSchema.enums.get(srcType.enum)?.values ?? []).some((v) => !allowed.has(v));
    return missing ? `the enum type ${srcType.enum} contains values not present in ${dstType.enum}` : null;
  }
  const sameColumnType = storageKind(dstSchema, dst.field) === storageKind(srcSchema, src.field) && srcType.kind !== "enum";
  if (!sameColumnType || dst.list !== src.list) return `${what} has type ${fieldTypeText(dst.field)}, but its type in the source is ${fieldTypeText(src.field)}`;
  return null;
}

/** Copies the base's data as of the graft block into the new deployment's (empty) tables. */
export async function copyGraftBase(tx: Queryable, id: string, layout: DeploymentLayout, graft: GraftSource): Promise<void> {
  const problems = graftIncompatibilities(layout, graft.baseLayout);
  if (problems.length > 0) {
    throw new StoreError(
      `The subgraph \`${graft.baseLayout.schemaName}\` cannot be used as the graft base for \`${layout.schemaName}\` because the schemas are incompatible:\n    - ${problems.join("\n    - ")}`,
      { details: { base: graft.base, problems } },
    );
  }
  for (const dst of layout.tables.values()) {
    const src = graft.baseLayout.tables.get(dst.entity.name);
    if (src) await copyTable(tx, dst, src, graft.block.number);
  }
  const block = graft.block.number;
  await tx.query(
    `insert into subgraphs.dynamic_data_source (deployment, ordinal, template, param, context, creation_block, causality_region, done_at)
     select $1, ordinal, template, param, context, creation_block, causality_region, case when done_at <= $3 then done_at end
       from subgraphs.dynamic_data_source where deployment = $2 and creation_block <= $3`,
    [id, graft.base, block],
  );
  await tx.query(
    `insert into subgraphs.subgraph_error (deployment, block_number, block_hash, handler, message)
     select $1, block_number, block_hash, handler, message from subgraphs.subgraph_error where deployment = $2 and block_number <= $3 order by ordinal`,
    [id, graft.base, block],
  );
  await tx.query(`insert into subgraphs.recent_block (deployment, number, hash) select $1, number, hash from subgraphs.recent_block where deployment = $2 and number <= $3`, [id, graft.base, block]);
  await copyPoiJournal(tx, id, graft.base, block);
  await tx.query(
    `update subgraphs.deployment d set graft_base = $2, graft_block = $3, history_blocks = b.history_blocks,
            earliest_block = ${earliestBlockSql("b")},
            latest_block_number = $3, latest_block_hash = $4
       from subgraphs.deployment b where d.id = $1 and b.id = $2`,
    [id, graft.base, block, graft.block.hash],
  );
}

async function copyTable(tx: Queryable, dst: TableLayout, src: TableLayout, block: number): Promise<void> {
  const shared = dst.columns.filter((c) => src.columns.some((s) => s.column === c.column));
  if (!src.immutable && dst.immutable) {
    // As graph-node: an entity type may become immutable only if no entity of it ever changed.
    const [changed] = await tx.query<{ n: number }>(`select count(*)::int4 as n from ${src.qualified} where lower(block_range) <= $1 and not upper_inf(block_range)`, [block]);
    if ((changed?.n ?? 0) > 0) throw new StoreError(`table ${src.qualified} for entity type ${src.entity.name} can not be made immutable since it contains at least one mutated entity`);
  }
  const blockValue = src.immutable
    ? dst.immutable ? `"block$"` : `int4range("block$", null)`
    : dst.immutable ? "lower(block_range)" : `case when coalesce(upper(block_range), ${BLOCK_MAX}) > $1 then int4range(lower(block_range), null) else block_range end`;
  const since = src.immutable ? `"block$"` : "lower(block_range)";
  const region = dst.causalityRegion ? (src.causalityRegion ? ", causality_region" : ", 0") : "";
  const columns = shared.map((c) => c.column).join(", ");
  await tx.query(
    `insert into ${dst.qualified} (${columns}, ${dst.immutable ? `"block$"` : "block_range"}${dst.causalityRegion ? ", causality_region" : ""})
     select ${columns}, ${blockValue}${region} from ${src.qualified} where ${since} <= $1 order by vid`,
    [block],
  );
}

/** A revert may not go below the graft block: what came before it is the base's. */
export async function checkNotBeforeGraft(tx: Queryable, id: string, block: number): Promise<void> {
  const [row] = await tx.query<{ graft_block: number | null }>("select graft_block from subgraphs.deployment where id = $1", [id]);
  if (row?.graft_block != null && row.graft_block > block) {
    throw new StoreError(`Can not revert subgraph \`${id}\` to block ${block} as it was grafted at block ${row.graft_block} and reverting past a graft point is not possible`, { details: { id, block, graftBlock: row.graft_block } });
  }
}
