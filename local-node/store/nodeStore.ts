// createNodeStore: Contract 2 over PGlite or pg. Metadata in schema `subgraphs`, entities in one
// schema per deployment (sgdN). Each transact is one database transaction with the block pointer.
import { randomBytes } from "node:crypto";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { createDatabase, type Database, type Queryable } from "./database.js";
import { DeploymentNotFoundError, StoreError, SubgraphExistsError, SubgraphNotFoundError } from "./errors.js";
import { attributeIndexesSql, buildLayout, createTablesSql, rowToEntity, selectAllSql, visibleAt, BLOCK_MAX, type DeploymentLayout } from "./layout.js";
import { DEPLOYMENT_COLUMNS, METADATA_SQL, readDeploymentRow, toDeploymentState, type DeploymentRow } from "./metadata.js";
import { runEntityQuery } from "./querySql.js";
import { applyBlocks, revertAbove } from "./writes.js";
import type { BlockChanges, BlockPtr, BlockPtrWithMeta, DeploymentRecord, NodeStore, NodeStoreOptions } from "./types.js";

export async function createNodeStore(options: NodeStoreOptions): Promise<NodeStore> {
  const db = await createDatabase(options);
  await db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(8000830)");
    await tx.exec(METADATA_SQL);
  });
  return buildNodeStore(db);
}

function buildNodeStore(db: Database): NodeStore {
  const layouts = new Map<string, DeploymentLayout>();

  async function deploymentRow(q: Queryable, id: string): Promise<DeploymentRow> {
    const row = await readDeploymentRow(q, id);
    if (!row) throw new DeploymentNotFoundError(id);
    return row;
  }

  async function layoutOf(id: string, q: Queryable = db): Promise<DeploymentLayout> {
    const cached = layouts.get(id);
    if (cached) return cached;
    const row = await deploymentRow(q, id);
    const layout = buildLayout(row.schema_name, parseSubgraphSchema(row.schema_sdl));
    layouts.set(id, layout);
    return layout;
  }

  async function subgraphRow(q: Queryable, name: string) {
    const rows = await q.query<{ id: string; current_version: number | null; pending_version: number | null }>(
      "select id, current_version, pending_version from subgraphs.subgraph where name = $1",
      [name],
    );
    return rows[0] ?? null;
  }

  async function versionDeployment(q: Queryable, versionId: number | null): Promise<string | null> {
    if (versionId === null) return null;
    const rows = await q.query<{ deployment: string }>("select deployment from subgraphs.subgraph_version where id = $1", [versionId]);
    return rows[0]?.deployment ?? null;
  }

  async function writeBlocks(id: string, blocks: BlockChanges[], recentBlocks: BlockPtr[]): Promise<void> {
    const last = blocks[blocks.length - 1];
    if (!last) return;
    const layout = await layoutOf(id);
    await db.transaction(async (tx) => {
      await applyBlocks(tx, layout, blocks.map((b) => ({ block: b.block.number, changes: b.changes })));
      await setPointer(tx, id, last.block);
      // Every hash the indexer reports is kept (one small row per block): reorg checks read recent ones,
      // `block: {hash}` queries may name any block, as graph-node answers them from its block cache.
      // One row per number (a statement may not upsert the same row twice); the batch's own blocks win.
      const hashes = [...new Map([...recentBlocks, ...blocks.map((b) => b.block)].map((b) => [b.number, b])).values()];
      await tx.query(
        `insert into subgraphs.recent_block (deployment, number, hash) select $1, n, h from unnest($2::int4[], $3::text[]) as u(n, h)
         on conflict (deployment, number) do update set hash = excluded.hash`,
        [id, hashes.map((b) => b.number), hashes.map((b) => b.hash)],
      );
    });
  }

  async function setPointer(tx: Queryable, id: string, block: BlockPtrWithMeta): Promise<void> {
    await tx.query(
      `update subgraphs.deployment set latest_block_number = $2, latest_block_hash = $3, latest_block_timestamp = $4, latest_block_parent_hash = $5 where id = $1`,
      [id, block.number, block.hash, block.timestamp ?? null, block.parentHash ?? null],
    );
  }

  const store: NodeStore = {
    async createSubgraph(name) {
      return db.transaction(async (tx) => {
        if (await subgraphRow(tx, name)) throw new SubgraphExistsError(name);
        const id = randomBytes(16).toString("hex");
        await tx.query("insert into subgraphs.subgraph (id, name) values ($1, $2)", [id, name]);
        return { id };
      });
    },

    async removeSubgraph(name) {
      await db.transaction(async (tx) => {
        const row = await subgraphRow(tx, name);
        if (!row) throw new SubgraphNotFoundError(name);
        await tx.query("delete from subgraphs.subgraph_version where subgraph = $1", [row.id]);
        await tx.query("delete from subgraphs.subgraph where id = $1", [row.id]);
      });
    },

    async subgraphExists(name) {
      return (await subgraphRow(db, name)) !== null;
    },

    async subgraphId(name) {
      return (await subgraphRow(db, name))?.id ?? null;
    },

    async createDeployment(d) {
      // Parse first: a bad schema must not leave a half-created deployment behind.
      const schema = parseSubgraphSchema(d.schemaSdl);
      await db.transaction(async (tx) => {
        if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(8000831)");
        if (await readDeploymentRow(tx, d.id)) return;
        const [seq] = await tx.query<{ n: string }>("select nextval('subgraphs.deployment_schema_seq')::text as n");
        const schemaName = `sgd${seq?.n ?? "0"}`;
        await tx.exec(createTablesSql(buildLayout(schemaName, schema)));
        await tx.query(
          `insert into subgraphs.deployment (id, schema_name, network, start_block, manifest, schema_sdl) values ($1, $2, $3, $4, $5, $6)`,
          [d.id, schemaName, d.network, d.startBlock, d.manifest, d.schemaSdl],
        );
      });
      const record = await store.getDeployment(d.id);
      if (!record) throw new DeploymentNotFoundError(d.id);
      return record;
    },

    async setPendingVersion(name, deploymentId, versionLabel) {
      await db.transaction(async (tx) => {
        const sub = await subgraphRow(tx, name);
        if (!sub) throw new SubgraphNotFoundError(name);
        const dep = await deploymentRow(tx, deploymentId);
        const [version] = await tx.query<{ id: number }>(
          "insert into subgraphs.subgraph_version (subgraph, deployment, label) values ($1, $2, $3) returning id",
          [sub.id, deploymentId, versionLabel],
        );
        const currentDeployment = await versionDeployment(tx, sub.current_version);
        if (sub.current_version === null || dep.synced || currentDeployment === deploymentId) {
          await tx.query("update subgraphs.subgraph set current_version = $2, pending_version = null where id = $1", [sub.id, version?.id]);
        } else {
          await tx.query("update subgraphs.subgraph set pending_version = $2 where id = $1", [sub.id, version?.id]);
        }
      });
    },

    async promoteIfSynced(deploymentId) {
      await db.transaction(async (tx) => {
        const dep = await deploymentRow(tx, deploymentId);
        if (!dep.synced) return;
        await tx.query(
          `update subgraphs.subgraph s set current_version = s.pending_version, pending_version = null
           from subgraphs.subgraph_version v where v.id = s.pending_version and v.deployment = $1`,
          [deploymentId],
        );
      });
    },

    async resolveName(name) {
      // One statement: every query by name resolves it.
      const rows = await db.query<{ deployment: string }>(
        "select v.deployment from subgraphs.subgraph s join subgraphs.subgraph_version v on v.id = s.current_version where s.name = $1",
        [name],
      );
      return rows[0]?.deployment ?? null;
    },

    async resolvePendingName(name) {
      const sub = await subgraphRow(db, name);
      return sub ? versionDeployment(db, sub.pending_version) : null;
    },

    async getDeployment(id) {
      const row = await readDeploymentRow(db, id);
      return row ? toDeploymentState(row).record : null;
    },

    async listDeployments(): Promise<DeploymentRecord[]> {
      const rows = await db.query<DeploymentRow>(`select ${DEPLOYMENT_COLUMNS} from subgraphs.deployment order by created_at, id`);
      return rows.map((r) => toDeploymentState(r).record);
    },

    transact: (id, block, changes, recentBlocks) => writeBlocks(id, [{ block, changes }], recentBlocks ?? []),

    transactBlocks: (id, blocks, recentBlocks) => writeBlocks(id, blocks, recentBlocks ?? []),

    async revertTo(id, block) {
      const layout = await layoutOf(id);
      await db.transaction(async (tx) => {
        await revertAbove(tx, layout, block.number);
        await setPointer(tx, id, block);
        await tx.query("delete from subgraphs.recent_block where deployment = $1 and number > $2", [id, block.number]);
        await tx.query("insert into subgraphs.recent_block (deployment, number, hash) values ($1, $2, $3) on conflict (deployment, number) do update set hash = excluded.hash", [id, block.number, block.hash]);
        // An error recorded above the new pointer no longer applies (graph-node unfails on revert).
        await tx.query(
          `update subgraphs.deployment set health = 'healthy', fatal_error = null, first_error_block = null where id = $1 and first_error_block > $2`,
          [id, block.number],
        );
      });
    },

    async recentBlockHash(id, number) {
      const rows = await db.query<{ hash: string }>("select hash from subgraphs.recent_block where deployment = $1 and number = $2", [id, number]);
      return rows[0]?.hash ?? null;
    },

    async blockNumberForHash(id, hash) {
      const rows = await db.query<{ number: number }>("select number from subgraphs.recent_block where deployment = $1 and hash = $2", [id, hash.toLowerCase()]);
      return rows[0]?.number ?? null;
    },

    async setSynced(id, synced) {
      const layout = await layoutOf(id);
      await db.transaction(async (tx) => {
        const [row] = await tx.query<{ attribute_indexes: boolean }>("select attribute_indexes from subgraphs.deployment where id = $1", [id]);
        // Attribute indexes are built once the historical sync is done (graph-node's postponed indexes).
        if (synced && row && !row.attribute_indexes) {
          const ddl = attributeIndexesSql(layout);
          if (ddl) await tx.exec(ddl);
          // Fresh statistics so the planner uses them (PGlite runs no autovacuum).
          for (const t of layout.tables.values()) await tx.exec(`analyze ${t.qualified}`);
          await tx.query("update subgraphs.deployment set attribute_indexes = true where id = $1", [id]);
        }
        await tx.query("update subgraphs.deployment set synced = $2 where id = $1", [id, synced]);
      });
    },

    async setPaused(id, paused) {
      await deploymentRow(db, id);
      await db.query("update subgraphs.deployment set paused = $2 where id = $1", [id, paused]);
    },

    async markFailed(id, error) {
      await db.transaction(async (tx) => {
        const row = await deploymentRow(tx, id);
        const failedAt = error.block;
        if (error.deterministic && failedAt && (row.latest_block_number === null || failedAt.number > row.latest_block_number)) {
          await setPointer(tx, id, failedAt);
          await tx.query("insert into subgraphs.recent_block (deployment, number, hash) values ($1, $2, $3) on conflict (deployment, number) do update set hash = excluded.hash", [id, failedAt.number, failedAt.hash]);
        }
        const firstError = error.deterministic ? (failedAt?.number ?? row.latest_block_number ?? row.start_block) : null;
        await tx.query(
          `update subgraphs.deployment set health = 'failed', fatal_error = $2, first_error_block = coalesce(first_error_block, $3) where id = $1`,
          [id, JSON.stringify(error), firstError],
        );
      });
    },

    async markHealthy(id) {
      await deploymentRow(db, id);
      await db.query("update subgraphs.deployment set health = 'healthy', fatal_error = null, first_error_block = null where id = $1", [id]);
    },

    async getEntity(id, entityType, entityId, block) {
      const layout = await layoutOf(id);
      const table = layout.tables.get(entityType);
      if (!table) throw new StoreError(`unknown entity type ${entityType}`, { details: { entityType } });
      const idParam = table.id.kind === "Bytes" ? `\\x${entityId.replace(/^0x/, "")}` : entityId;
      const rows = await db.query(
        `select ${selectAllSql(table)} from ${table.qualified} t where t.${table.id.column} = $1::text::${table.id.sqlType} and ${visibleAt(table, "$2")} limit 1`,
        [idParam, block ?? BLOCK_MAX],
      );
      return rows[0] ? rowToEntity(table, rows[0]) : null;
    },

    async getDerived(id, entityType, field, entityId, block) {
      const layout = await layoutOf(id);
      const table = layout.tables.get(entityType);
      const column = table?.columnsByField.get(field);
      if (!table || !column) throw new StoreError(`unknown field ${entityType}.${field}`, { details: { entityType, field } });
      const param = column.kind === "Bytes" ? `\\x${entityId.replace(/^0x/, "")}` : entityId;
      const cond = column.list ? `$1::text::${column.sqlType.replace("[]", "")} = any(t.${column.column})` : `t.${column.column} = $1::text::${column.sqlType}`;
      const rows = await db.query(
        `select ${selectAllSql(table)} from ${table.qualified} t where ${cond} and ${visibleAt(table, "$2")} order by t.${table.id.column}`,
        [param, block ?? BLOCK_MAX],
      );
      return rows.map((r) => rowToEntity(table, r));
    },

    async entityCount(id) {
      const layout = await layoutOf(id);
      let total = 0;
      for (const table of layout.tables.values()) {
        const where = table.immutable ? "" : ` where block_range @> ${BLOCK_MAX}`;
        const [row] = await db.query<{ n: string }>(`select count(*)::text as n from ${table.qualified}${where}`);
        total += Number(row?.n ?? 0);
      }
      return total;
    },

    async listIndexes(id) {
      const row = await deploymentRow(db, id);
      const rows = await db.query<{ indexname: string }>("select indexname from pg_indexes where schemaname = $1 order by indexname", [row.schema_name]);
      return rows.map((r) => r.indexname);
    },

    async queryEntities(id, query) {
      // The GraphQL layer has checked the block against the pointer (one query less per request).
      return runEntityQuery(db, await layoutOf(id), query);
    },

    close: () => db.close(),
  };
  return store;
}
