// Deployment metadata in schema `subgraphs`: creation (with the deployment's entity schema sgdN),
// records, sync state, health and failures.
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { DeploymentNotFoundError } from "./errors.js";
import { BLOCK_MAX, buildLayout, createPoiTableSql, createTablesSql } from "./layout.js";
import { DEPLOYMENT_COLUMNS, readDeploymentRow, toDeploymentState, type DeploymentRow } from "./metadata.js";
import { deploymentRow, layoutOf, type StoreState } from "./storeState.js";
import { recordBlockHash, setPointer } from "./blockPointer.js";
import { copyGraftBase } from "./grafting.js";
import { settleErrorsAt } from "./subgraphErrors.js";
import type { CreateDeploymentInput, DeploymentRecord, FatalError, PoiJournalEntry } from "./types.js";
import { insertPoiJournal } from "./poiJournal.js";
import { buildAttributeIndexes } from "./attributeIndexBuild.js";

export async function getDeployment({ db }: StoreState, id: string): Promise<DeploymentRecord | null> {
  const row = await readDeploymentRow(db, id);
  return row ? toDeploymentState(row).record : null;
}

export async function listDeployments({ db }: StoreState): Promise<DeploymentRecord[]> {
  const rows = await db.query<DeploymentRow>(`select ${DEPLOYMENT_COLUMNS} from subgraphs.deployment order by created_at, id`);
  return rows.map((r) => toDeploymentState(r).record);
}

export async function createDeployment(s: StoreState, d: CreateDeploymentInput): Promise<DeploymentRecord> {
  const { db } = s;
  // Parse first: a bad schema must not leave a half-created deployment behind.
  const schema = parseSubgraphSchema(d.schemaSdl);
  await db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(8000831)");
    if (await readDeploymentRow(tx, d.id)) return;
    const [seq] = await tx.query<{ n: string }>("select nextval('subgraphs.deployment_schema_seq')::text as n");
    const schemaName = `sgd${seq?.n ?? "0"}`;
    const regions = d.causalityRegionEntities ?? [];
    const layout = buildLayout(schemaName, schema, regions);
    await tx.exec(createTablesSql(layout));
    await tx.query(
      `insert into subgraphs.deployment (id, schema_name, network, start_block, manifest, schema_sdl, causality_region_entities, history_blocks) values ($1, $2, $3, $4, $5, $6, $7::text[], $8)`,
      [d.id, schemaName, d.network, d.startBlock, d.manifest, d.schemaSdl, regions, d.historyBlocks ?? BLOCK_MAX],
    );
    if (d.graft) await copyGraftBase(tx, d.id, layout, { base: d.graft.base, baseLayout: await layoutOf(s, d.graft.base, tx), block: d.graft.block });
  });
  const record = await getDeployment(s, d.id);
  if (!record) throw new DeploymentNotFoundError(d.id);
  return record;
}

export async function setSynced(s: StoreState, id: string, synced: boolean): Promise<void> {
  const layout = await layoutOf(s, id);
  await s.db.transaction(async (tx) => {
    const [row] = await tx.query<{ attribute_indexes: boolean }>("select attribute_indexes from subgraphs.deployment where id = $1", [id]);
    // Attribute indexes are built once the historical sync is done (graph-node's postponed indexes).
    if (synced && row && !row.attribute_indexes) {
      await buildAttributeIndexes(tx, layout, s.db.kind);
      await tx.query("update subgraphs.deployment set attribute_indexes = true where id = $1", [id]);
    }
    await tx.query("update subgraphs.deployment set synced = $2 where id = $1", [id, synced]);
  });
}

export async function setNodeId({ db }: StoreState, id: string, nodeId: string): Promise<void> {
  await deploymentRow(db, id);
  await db.query("update subgraphs.deployment set node_id = $2 where id = $1", [id, nodeId]);
}

export async function setPaused({ db }: StoreState, id: string, paused: boolean): Promise<void> {
  await deploymentRow(db, id);
  await db.query("update subgraphs.deployment set paused = $2 where id = $1", [id, paused]);
}

export async function markFailed(s: StoreState, id: string, error: FatalError, poiJournal?: PoiJournalEntry): Promise<void> {
  await s.db.transaction(async (tx) => {
    const row = await deploymentRow(tx, id);
    const failedAt = error.block;
    // A deterministic failure above the pointer is transacted as a block with only its proof of indexing, as graph-node does.
    if (error.deterministic && failedAt && (row.latest_block_number === null || failedAt.number > row.latest_block_number)) {
      if (poiJournal) await insertPoiJournal(tx, id, [{ block: failedAt.number, journal: poiJournal }]);
      await setPointer(tx, id, failedAt);
      await recordBlockHash(tx, id, failedAt);
    }
    const firstError = error.deterministic ? (failedAt?.number ?? row.latest_block_number ?? row.start_block) : null;
    await tx.query(
      `update subgraphs.deployment set health = 'failed', fatal_error = $2, first_error_block = coalesce(first_error_block, $3) where id = $1`,
      [id, JSON.stringify(error), firstError],
    );
  });
}

export async function markHealthy({ db }: StoreState, id: string): Promise<void> {
  await deploymentRow(db, id);
  // Non-fatal errors stay: the deployment is then unhealthy, not healthy.
  await settleErrorsAt(db, id, null);
}

export async function listIndexes({ db }: StoreState, id: string): Promise<string[]> {
  const row = await deploymentRow(db, id);
  const rows = await db.query<{ indexname: string }>("select indexname from pg_indexes where schemaname = $1 order by indexname", [row.schema_name]);
  return rows.map((r) => r.indexname);
}

/** Deployments made before the store kept proof-of-indexing digests get their table. */
export async function ensurePoiTables(s: StoreState): Promise<void> {
  const rows = await s.db.query<{ id: string }>("select id from subgraphs.deployment");
  for (const { id } of rows) await s.db.exec(createPoiTableSql(await layoutOf(s, id)));
}
