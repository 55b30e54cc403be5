// The local node as a service of a longer job (`dev`, the approval project's `npm start`): started with
// its data under one folder and a database chosen there, or found already answering on its admin port.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { openNodeDatabase, type NodeDatabase } from "./nodeDatabase.js";
import type { LocalNodePorts, MappingLimits, QueryLimits, VersionSwitching } from "../local-node/index.js";

export type { LocalNodePorts };

export const defaultPorts: LocalNodePorts = { query: 8000, admin: 8020, ipfs: 5001, status: 8030 };

type Log = (line: string) => void;

export interface StartLocalNodeOptions {
  ethereumRpc: string;
  dataDir: string;
  postgres: boolean;
  /** Drop the node's data first: it indexed an earlier chain. */
  reset: boolean;
  ports: LocalNodePorts;
  queryLimits?: Partial<QueryLimits>;
  mappingLimits?: Partial<MappingLimits>;
  /** When a new version serves; default: EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE, else instant (graph-node's). */
  versionSwitching?: VersionSwitching;
  /** A host thread loaded ahead for each next deployment (the dev loop deploys on every save). */
  keepSpareHostThread?: boolean;
  /** Chain data kept for re-indexing (the dev loop re-indexes on every save). */
  chainCache?: boolean;
  /** graph-node's `--fork-base`: where debug-forked deployments read the entities they have not written. */
  forkBase?: string;
}

export interface StartedLocalNode {
  /** Closes the node, then its database server. */
  close(): Promise<void>;
}

/** Starts our local node with its data under `<dataDir>/local-node` (and `<dataDir>/postgres` with --postgres). */
export async function startLocalNodeService(options: StartLocalNodeOptions, log: Log): Promise<StartedLocalNode> {
  const nodeDataDir = join(options.dataDir, "local-node");
  if (options.reset && existsSync(nodeDataDir)) {
    log(`resetting ${nodeDataDir}: it indexed an earlier chain, and this chain is new`);
    await rm(nodeDataDir, { recursive: true, force: true });
  }
  // DATABASE_URL is not read here: the job owns its data, and resets it on a new chain.
  const database: NodeDatabase = await openNodeDatabase({ postgres: options.postgres, postgresDir: join(options.dataDir, "postgres"), reset: options.reset, env: {} });
  log(`starting the local node (${database.describe}; files in ${nodeDataDir})`);
  try {
    const { createLocalNode, nodeSettingsFromEnv } = await import("../local-node/index.js");
    const node = await createLocalNode({
      ethereumRpc: options.ethereumRpc,
      dataDir: nodeDataDir,
      ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}),
      ports: options.ports,
      log: (line: string) => void line,
      ...(options.queryLimits ? { queryLimits: options.queryLimits } : {}),
      ...(options.mappingLimits ? { mappingLimits: options.mappingLimits } : {}),
      ...nodeSettingsFromEnv(),
      ...(options.versionSwitching ? { versionSwitching: options.versionSwitching } : {}),
      ...(options.keepSpareHostThread ? { keepSpareHostThread: true } : {}),
      ...(options.chainCache ? { chainCache: true } : {}),
      ...(options.forkBase ? { forkBase: options.forkBase } : {}),
    });
    return {
      async close() {
        await node.close();
        await database.stop();
      },
    };
  } catch (error) {
    await database.stop();
    throw error;
  }
}

/** True when something answers HTTP at `url` (a graph node's admin port, say). */
export async function answersHttp(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}
