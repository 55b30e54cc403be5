// Subgraph names and their versions: which deployment a name serves now (current) and which one
// takes over once it is synced (pending).
import { randomBytes } from "node:crypto";
import type { Queryable } from "./database.js";
import { SubgraphExistsError, SubgraphNotFoundError } from "./errors.js";
import { deploymentRow, type StoreState } from "./storeState.js";
import type { VersionSwitching } from "./types.js";

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

export async function createSubgraph({ db }: StoreState, name: string): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    if (await subgraphRow(tx, name)) throw new SubgraphExistsError(name);
    const id = randomBytes(16).toString("hex");
    await tx.query("insert into subgraphs.subgraph (id, name) values ($1, $2)", [id, name]);
    return { id };
  });
}

export async function removeSubgraph({ db }: StoreState, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await subgraphRow(tx, name);
    if (!row) throw new SubgraphNotFoundError(name);
    await tx.query("delete from subgraphs.subgraph_version where subgraph = $1", [row.id]);
    await tx.query("delete from subgraphs.subgraph where id = $1", [row.id]);
  });
}

export async function subgraphExists({ db }: StoreState, name: string): Promise<boolean> {
  return (await subgraphRow(db, name)) !== null;
}

export async function subgraphId({ db }: StoreState, name: string): Promise<string | null> {
  return (await subgraphRow(db, name))?.id ?? null;
}

/**
 * graph-node's version switching (EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE): `instant` (its default)
 * makes a new deployment the name's current version at once; `synced` does so only when the current one
 * is not synced yet or the new one already is, and otherwise makes it pending until it syncs.
 */
export async function setPendingVersion({ db }: StoreState, name: string, deploymentId: string, versionLabel: string | null, switching: VersionSwitching = "instant"): Promise<void> {
  await db.transaction(async (tx) => {
    const sub = await subgraphRow(tx, name);
    if (!sub) throw new SubgraphNotFoundError(name);
    const dep = await deploymentRow(tx, deploymentId);
    const currentDeployment = await versionDeployment(tx, sub.current_version);
    const pendingDeployment = await versionDeployment(tx, sub.pending_version);
    // A current version whose deployment is gone counts as not synced (graph-node's `optional`).
    const currentSynced = currentDeployment === null ? false : await deploymentRow(tx, currentDeployment).then((row) => row.synced, () => false);
    const changeNeeded = switching === "instant" || !currentSynced ? currentDeployment !== deploymentId : pendingDeployment !== deploymentId;
    if (!changeNeeded) return;
    const [version] = await tx.query<{ id: number }>(
      "insert into subgraphs.subgraph_version (subgraph, deployment, label) values ($1, $2, $3) returning id",
      [sub.id, deploymentId, versionLabel],
    );
    if (switching === "instant" || !currentSynced || dep.synced) {
      await tx.query("update subgraphs.subgraph set current_version = $2, pending_version = null where id = $1", [sub.id, version?.id]);
    } else {
      await tx.query("update subgraphs.subgraph set pending_version = $2 where id = $1", [sub.id, version?.id]);
    }
  });
}

/** Answers whether a name switched to this deployment (its old version may now be unused). */
export async function promoteIfSynced({ db }: StoreState, deploymentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const dep = await deploymentRow(tx, deploymentId);
    if (!dep.synced) return false;
    const switched = await tx.query<{ id: string }>(
      `update subgraphs.subgraph s set current_version = s.pending_version, pending_version = null
           from subgraphs.subgraph_version v where v.id = s.pending_version and v.deployment = $1 returning s.id`,
      [deploymentId],
    );
    return switched.length > 0;
  });
}

export async function resolveName({ db }: StoreState, name: string): Promise<string | null> {
  // One statement: every query by name resolves it.
  const rows = await db.query<{ deployment: string }>(
    "select v.deployment from subgraphs.subgraph s join subgraphs.subgraph_version v on v.id = s.current_version where s.name = $1",
    [name],
  );
  return rows[0]?.deployment ?? null;
}

export async function resolvePendingName({ db }: StoreState, name: string): Promise<string | null> {
  const sub = await subgraphRow(db, name);
  return sub ? versionDeployment(db, sub.pending_version) : null;
}
