// createNodeStore: the node's store over PGlite or pg. Metadata in schema `subgraphs`, entities in one
// schema per deployment (sgdN). Each transact is one database transaction with the block pointer.
// The methods live by concern: subgraphVersions (names), deploymentMetadata, blockPointer (pointer and
// block hashes), blockWrites (entity writes and reverts), entityReads; they share a StoreState.
import { entitiesCreatedIn } from "./sourceEntities.js";
import { createDatabase, createPgliteTemplate, type Database } from "./database.js";
import { METADATA_SQL } from "./metadata.js";
import { DYNAMIC_DATA_SOURCES_SQL, loadDataSources } from "./dynamicDataSources.js";
import { SUBGRAPH_ERRORS_SQL, nonFatalErrors } from "./subgraphErrors.js";
import { POI_JOURNAL_SQL, readPoiJournal, writePoiDigests } from "./poiJournal.js";
import { layoutOf, type StoreState } from "./storeState.js";
import { copyPlanOf } from "./layout.js";
import { createSubgraph, promoteIfSynced, removeSubgraph, resolveName, resolvePendingName, setPendingVersion, subgraphExists, subgraphId } from "./subgraphVersions.js";
import { createDeployment, ensurePoiTables, getDeployment, listDeployments, listIndexes, markFailed, markHealthy, setNodeId, setPaused, setSynced } from "./deploymentMetadata.js";
import { blockNumberForHash, recentBlockHash } from "./blockPointer.js";
import { revertTo, writeBlocks } from "./blockWrites.js";
import { entityCount, getDerived, getEntity, poiDigests, queryEntities } from "./entityReads.js";
import { deploymentSize, entityChangesInBlock } from "./blockChanges.js";
import { entityCountsByType, subgraphVersions } from "./dashboardReads.js";
import { DEFAULT_PRUNING_POLICY } from "./pruning.js";
import type { NodeStore, NodeStoreOptions, PruningPolicy } from "./types.js";
import { ImmutableRowCounts } from "./immutableCounts.js";
import { CHAIN_CACHE_SQL, clearKept, readKept, writeKept } from "./chainCacheTable.js";
import { SUBGRAPH_LOGS_SQL, appendLogEntries, queryLogEntries } from "./subgraphLogs.js";
import { createLogRecorder } from "./logRecorder.js";

// A new PGlite folder is copied with these tables already made; an existing one or a server's database
// gets whatever is missing (the statements create only what is not there).
const NODE_SCHEMA_SQL = [METADATA_SQL, DYNAMIC_DATA_SOURCES_SQL, SUBGRAPH_ERRORS_SQL, POI_JOURNAL_SQL, CHAIN_CACHE_SQL, SUBGRAPH_LOGS_SQL].join("\n");

/** The pristine PGlite folder a new node store starts from, made in `folder` (the package's build ships one). */
export function createNodeStoreTemplate(folder: string): Promise<string> {
  return createPgliteTemplate(folder, { schemaSql: NODE_SCHEMA_SQL });
}

export async function createNodeStore(options: NodeStoreOptions): Promise<NodeStore> {
  const schemaSql = NODE_SCHEMA_SQL;
  const db = await createDatabase({ ...options, schemaSql });
  await db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(8000830)");
    await tx.exec(schemaSql);
  });
  const s: StoreState = { db, layouts: new Map(), pruning: { ...DEFAULT_PRUNING_POLICY, ...options.pruning }, lastRollups: new Map(), immutableCounts: new ImmutableRowCounts() };
  await ensurePoiTables(s);
  return buildNodeStore(s);
}

function buildNodeStore(s: StoreState): NodeStore {
  const { db } = s;
  const logs = createLogRecorder({ write: (entries) => appendLogEntries(db, entries) });
  return {
    createSubgraph: (name) => createSubgraph(s, name),
    removeSubgraph: (name) => removeSubgraph(s, name),
    subgraphExists: (name) => subgraphExists(s, name),
    subgraphId: (name) => subgraphId(s, name),
    createDeployment: (d) => createDeployment(s, d),
    setPendingVersion: (name, deploymentId, versionLabel, switching) => setPendingVersion(s, name, deploymentId, versionLabel, switching),
    promoteIfSynced: (deploymentId) => promoteIfSynced(s, deploymentId),
    resolveName: (name) => resolveName(s, name),
    resolvePendingName: (name) => resolvePendingName(s, name),
    getDeployment: (id) => getDeployment(s, id),
    listDeployments: () => listDeployments(s),
    transact: (id, block, changes, recentBlocks) => writeBlocks(s, id, [{ block, changes }], recentBlocks ?? []),
    transactBlocks: (id, blocks, recentBlocks) => writeBlocks(s, id, blocks, recentBlocks ?? []),
    copyPlan: async (id) => (db.copyFrom ? copyPlanOf(await layoutOf(s, id)) : null),
    revertTo: (id, block) => revertTo(s, id, block),
    loadDataSources: (id) => loadDataSources(s, id),
    recentBlockHash: (id, number) => recentBlockHash(s, id, number),
    blockNumberForHash: (id, hash) => blockNumberForHash(s, id, hash),
    setSynced: (id, synced) => setSynced(s, id, synced),
    setPaused: (id, paused) => setPaused(s, id, paused),
    setNodeId: (id, nodeId) => setNodeId(s, id, nodeId),
    markFailed: (id, error, changes) => markFailed(s, id, error, changes),
    markHealthy: (id) => markHealthy(s, id),
    nonFatalErrors: (id) => nonFatalErrors(s, id),
    getEntity: (id, entityType, entityId, block) => getEntity(s, id, entityType, entityId, block),
    getDerived: (id, entityType, field, entityId, block) => getDerived(s, id, entityType, field, entityId, block),
    entitiesCreatedIn: (id, entityTypes, from, to) => entitiesCreatedIn(s, id, entityTypes, from, to),
    entityCount: (id, block) => entityCount(s, id, block),
    entityChangesInBlock: (id, block) => entityChangesInBlock(s, id, block),
    deploymentSize: (id) => deploymentSize(s, id),
    subgraphVersions: () => subgraphVersions(s),
    entityCountsByType: (id) => entityCountsByType(s, id),
    poiDigests: (id, block) => poiDigests(s, id, block),
    poiJournal: (id, limit) => readPoiJournal(s, id, limit),
    writePoiDigests: (id, writes) => writePoiDigests(s, id, writes),
    listIndexes: (id) => listIndexes(s, id),
    queryEntities: (id, query) => queryEntities(s, id, query),
    chainCache: {
      read: (chainId, keys) => readKept(s, chainId, keys),
      write: (chainId, entries) => writeKept(s, chainId, entries),
      clear: (chainId) => clearKept(s, chainId),
    },
    recordLog: (id, entry) => logs.record(id, entry),
    queryLogs: async (id, query) => (await logs.flush(), queryLogEntries(s, id, query)),
    close: async () => {
      await logs.flush();
      await db.close();
    },
  };
}
