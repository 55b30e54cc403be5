// graph-node with its own PostgreSQL: the server DATABASE_URL names, a persistent embedded cluster, or a
// throwaway one. graph-node runs its own migrations in a database of its own (`graph_node`).
import { dropDatabase, ensureDatabase, startEmbeddedPostgres, startThrowawayPostgres, type EmbeddedPostgres } from "../lib/embedded-postgres/index.js";
import { startGraphNode, type GraphNodeOptions, type RunningGraphNode } from "./graphNode.js";

export type GraphNodeEngineOptions = Omit<GraphNodeOptions, "postgresUrl"> & {
  /** A server of yours (URL with a password), a persistent embedded cluster folder, or neither (throwaway). */
  postgres?: { url: string } | { dataDir: string };
  /** Drop graph-node's database first (what it indexed belongs to a chain that is gone). */
  resetDatabase?: boolean;
};

const DATABASE = "graph_node";

export interface GraphNodeEngine extends RunningGraphNode {
  postgresUrl: string;
}

export async function startGraphNodeEngine(options: GraphNodeEngineOptions): Promise<GraphNodeEngine> {
  let server: EmbeddedPostgres | undefined;
  let serverUrl: string;
  if (options.postgres && "url" in options.postgres) serverUrl = options.postgres.url;
  else {
    server = options.postgres ? await startEmbeddedPostgres({ dataDir: options.postgres.dataDir }) : await startThrowawayPostgres();
    serverUrl = server.url;
  }
  try {
    if (options.resetDatabase) await dropDatabase(serverUrl, DATABASE);
    const postgresUrl = await ensureDatabase(serverUrl, DATABASE);
    const node = await startGraphNode({ ...options, postgresUrl });
    return {
      ...node,
      postgresUrl,
      async close() {
        await node.close();
        await server?.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    throw error;
  }
}
