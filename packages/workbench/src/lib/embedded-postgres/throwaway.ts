// Throwaway clusters for tests and comparisons: a fresh folder under the OS temp dir, fsync off, removed
// on stop. Each folder records the pid of the process that owns it; a later start removes the folders
// (and stops the servers) of owners that died without cleaning up, such as a killed test run.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rename, rm, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { livePidIn, startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedPostgresOptions } from "./server.js";

const PREFIX = "embedded-postgres-run-";
/** A folder being made: it takes PREFIX's name once it names its owner. */
const STAGING_PREFIX = "embedded-postgres-new-";

export async function startThrowawayPostgres(options: Omit<EmbeddedPostgresOptions, "dataDir" | "durable"> = {}): Promise<EmbeddedPostgres> {
  await sweepAbandonedClusters();
  // Made under another name and renamed once it names its owner: a sweep in another process would
  // take a run folder without an owner for an abandoned one, and remove it under a starting server.
  const staging = await mkdtemp(join(tmpdir(), STAGING_PREFIX));
  // The server's account (not root) must reach the data folder inside.
  await chmod(staging, 0o755);
  await writeFile(join(staging, "owner.pid"), String(process.pid));
  const root = join(tmpdir(), PREFIX + basename(staging).slice(STAGING_PREFIX.length));
  await rename(staging, root);
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
    const staging = name.startsWith(STAGING_PREFIX);
    if (!staging && !name.startsWith(PREFIX)) continue;
    const root = join(base, name);
    if ((await livePidIn(join(root, "owner.pid"))) !== null) continue;
    // A staging folder without its owner's pid yet is still being made (or its maker died in between).
    if (staging && !existsSync(join(root, "owner.pid"))) continue;
    const server = await livePidIn(join(root, "data", "postmaster.pid"));
    if (server !== null && (await mayBeServerOf(server, join(root, "data")))) {
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

/**
 * False when `pid` is known to be another process than the server on `dataDir`: a server killed with
 * SIGKILL leaves its pid file, and that pid may since belong to anything. Where /proc cannot tell, true.
 */
async function mayBeServerOf(pid: number, dataDir: string): Promise<boolean> {
  const commandLine = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => null);
  return commandLine === null || commandLine.split("\0").includes(dataDir);
}

/** The server DATABASE_URL names, or else a throwaway embedded one. `stop` only stops what this started. */
export async function postgresFromEnvOrThrowaway(env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; embedded: boolean; stop(): Promise<void> }> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => undefined };
  const server = await startThrowawayPostgres();
  return { url: server.url, embedded: true, stop: () => server.stop() };
}
