// Where the local node keeps its entities: embedded PGlite (the default), a PostgreSQL server named by
// DATABASE_URL, or with --postgres a real PostgreSQL server from npm whose cluster lives in the project's
// data folder. Only one may be chosen.
import { dropDatabase, ensureDatabase, startEmbeddedPostgres } from "../lib/embedded-postgres/index.js";

export interface NodeDatabase {
  /** For createLocalNode: absent means PGlite. */
  databaseUrl?: string;
  describe: string;
  /** Stops the embedded server, if one was started. */
  stop(): Promise<void>;
}

export interface NodeDatabaseOptions {
  postgres: boolean;
  /** The embedded cluster's folder (with --postgres). */
  postgresDir: string;
  /** Drop the node's database first (its data belongs to a chain that is gone). */
  reset?: boolean;
  env?: NodeJS.ProcessEnv;
}

export const NODE_DATABASE = "local_node";

export async function openNodeDatabase(options: NodeDatabaseOptions): Promise<NodeDatabase> {
  const env = options.env ?? process.env;
  if (options.postgres && env.DATABASE_URL) throw new Error("both --postgres and DATABASE_URL are set: choose one (unset DATABASE_URL to use the embedded server)");
  if (env.DATABASE_URL) return { databaseUrl: env.DATABASE_URL, describe: "PostgreSQL from DATABASE_URL", stop: async () => undefined };
  if (!options.postgres) return { describe: "embedded PGlite", stop: async () => undefined };
  const server = await startEmbeddedPostgres({ dataDir: options.postgresDir });
  try {
    if (options.reset) await dropDatabase(server.url, NODE_DATABASE);
    const databaseUrl = await ensureDatabase(server.url, NODE_DATABASE);
    return { databaseUrl, describe: `embedded PostgreSQL on 127.0.0.1:${server.port}, data in ${options.postgresDir}`, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
