// Throwaway clusters for tests and comparisons: a fresh folder under the OS temp dir, fsync off, removed
// on stop. Each folder records the pid of the process that owns it; a later start removes the folders
// (and stops the servers) of owners that died without cleaning up, such as a killed test run.
import { mkdtemp, readdir, rm, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { livePidIn, startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedPostgresOptions } from "./server.js";

const PREFIX = "embedded-postgres-run-";

export async function startThrowawayPostgres(options: Omit<EmbeddedPostgresOptions, "dataDir" | "durable"> = {}): Promise<EmbeddedPostgres> {
  await sweepAbandonedClusters();
  const root = await mkdtemp(join(tmpdir(), PREFIX));
  // The server's account (not root) must reach the data folder inside.
  await chmod(root, 0o755);
  await writeFile(join(root, "owner.pid"), String(process.pid));
  try {
    const server = await startEmbeddedPostgres({ ...options, dataDir: join(root, "data"), durable: false });
    return {
      ...server,
      async stop() {
        await server.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** Stops and removes throwaway clusters whose owning process is gone. Returns how many it removed. */
export async function sweepAbandonedClusters(base: string = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(base).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX)) continue;
    const root = join(base, name);
    if ((await livePidIn(join(root, "owner.pid"))) !== null) continue;
    const server = await livePidIn(join(root, "data", "postmaster.pid"));
    if (server !== null) {
      try {
        process.kill(server, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await rm(root, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** The server DATABASE_URL names, or else a throwaway embedded one. `stop` only stops what this started. */
export async function postgresFromEnvOrThrowaway(env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; embedded: boolean; stop(): Promise<void> }> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => undefined };
  const server = await startThrowawayPostgres();
  return { url: server.url, embedded: true, stop: () => server.stop() };
}
