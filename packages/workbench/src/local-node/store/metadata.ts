// The store's metadata schema `subgraphs`: subgraph names, their versions (current/pending),
// deployments (schema, pointer, health, fatal error) and recent block hashes for reorg checks.
import type { Queryable } from "./database.js";
import type { DeploymentRecord, FatalError } from "./types.js";

export const METADATA_SQL = `
create schema if not exists subgraphs;
create table if not exists subgraphs.subgraph (
  id text primary key,
  name text not null unique,
  current_version int4,
  pending_version int4,
  created_at timestamptz not null default now()
);
create table if not exists subgraphs.subgraph_version (
  id serial primary key,
  subgraph text not null,
  deployment text not null,
  label text,
  created_at timestamptz not null default now()
);
create sequence if not exists subgraphs.deployment_schema_seq;
create table if not exists subgraphs.deployment (
  id text primary key,
  schema_name text not null unique,
  network text not null,
  start_block int4 not null,
  latest_block_number int4,
  latest_block_hash text,
  latest_block_timestamp int8,
  latest_block_parent_hash text,
  health text not null default 'healthy',
  fatal_error text,
  first_error_block int4,
  synced boolean not null default false,
  attribute_indexes boolean not null default false,
  paused boolean not null default false,
  manifest text not null,
  schema_sdl text not null,
  created_at timestamptz not null default now()
);
-- Stores created before the column existed get it here.
alter table subgraphs.deployment add column if not exists attribute_indexes boolean not null default false;
alter table subgraphs.deployment add column if not exists causality_region_entities text[] not null default '{}';
alter table subgraphs.deployment add column if not exists node_id text not null default 'default';
-- Pruning (graph-node's history_blocks and earliest_block_number); null earliest: nothing pruned yet.
alter table subgraphs.deployment add column if not exists history_blocks int4 not null default 2147483647;
alter table subgraphs.deployment add column if not exists earliest_block int4;
-- Grafting: the base deployment and the block the data was copied at.
alter table subgraphs.deployment add column if not exists graft_base text;
alter table subgraphs.deployment add column if not exists graft_block int4;
create table if not exists subgraphs.recent_block (
  deployment text not null,
  number int4 not null,
  hash text not null,
  primary key (deployment, number)
);
create index if not exists recent_block_hash on subgraphs.recent_block (deployment, hash);
`;

/**
 * The deployment row's earliest queryable block (graph-node's earliest_block_number): what pruning set,
 * else the block before the lowest start block (its `start_block` pointer), or 0 for a start at genesis.
 * `row` qualifies the columns when several deployment rows are in the statement.
 */
export function earliestBlockSql(row = ""): string {
  const at = row ? `${row}.` : "";
  return `coalesce(${at}earliest_block, greatest(${at}start_block - 1, 0))`;
}

export const DEPLOYMENT_COLUMNS = `id, schema_name, network, start_block, latest_block_number, latest_block_hash,
  latest_block_timestamp::text as latest_block_timestamp, latest_block_parent_hash, health, fatal_error,
  first_error_block, synced, paused, node_id, manifest, schema_sdl, causality_region_entities, history_blocks,
  ${earliestBlockSql()} as earliest_block,
  exists (select 1 from subgraphs.subgraph s join subgraphs.subgraph_version v on v.id in (s.current_version, s.pending_version)
          where v.deployment = subgraphs.deployment.id) as assigned`;

export interface DeploymentRow {
  id: string;
  schema_name: string;
  network: string;
  start_block: number;
  latest_block_number: number | null;
  latest_block_hash: string | null;
  latest_block_timestamp: string | null;
  latest_block_parent_hash: string | null;
  health: string;
  fatal_error: string | null;
  first_error_block: number | null;
  synced: boolean;
  paused: boolean;
  node_id: string;
  assigned: boolean;
  manifest: string;
  schema_sdl: string;
  /** Entity types whose tables have a `causality_region` column (those file data sources may write). */
  causality_region_entities: string[];
  history_blocks: number;
  earliest_block: number;
  [key: string]: unknown;
}

/** Deployment state the query side needs besides the record. */
export interface DeploymentState {
  record: DeploymentRecord;
  /** The first block at which a deterministic error is visible (graph-node's first_error_block). */
  firstErrorBlock: number | null;
}

export function toDeploymentState(row: DeploymentRow): DeploymentState {
  const latestBlock =
    row.latest_block_number === null || row.latest_block_hash === null
      ? null
      : {
          number: row.latest_block_number,
          hash: row.latest_block_hash,
          ...(row.latest_block_timestamp !== null ? { timestamp: Number(row.latest_block_timestamp) } : {}),
          ...(row.latest_block_parent_hash !== null ? { parentHash: row.latest_block_parent_hash } : {}),
        };
  const record: DeploymentRecord = {
    id: row.id,
    schemaName: row.schema_name,
    network: row.network,
    startBlock: row.start_block,
    latestBlock,
    health: row.health === "failed" || row.health === "unhealthy" ? row.health : "healthy",
    fatalError: row.fatal_error === null ? null : (JSON.parse(row.fatal_error) as FatalError),
    synced: row.synced,
    paused: row.paused,
    assigned: row.assigned,
    nodeId: row.node_id,
    manifest: row.manifest,
    schemaSdl: row.schema_sdl,
    earliestBlock: row.earliest_block,
    historyBlocks: row.history_blocks,
    firstErrorBlock: row.first_error_block,
  };
  return { record, firstErrorBlock: row.first_error_block };
}

export async function readDeploymentRow(q: Queryable, id: string): Promise<DeploymentRow | null> {
  const rows = await q.query<DeploymentRow>(`select ${DEPLOYMENT_COLUMNS} from subgraphs.deployment where id = $1`, [id]);
  return rows[0] ?? null;
}
