// Test helpers for the store backends: in-memory PGlite always; a throwaway database on the Postgres
// server named by DATABASE_URL when it is set. In CI (CI=true) a missing DATABASE_URL is an error,
// so the Postgres variant of a suite can never be skipped silently there.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { StoreError, maskDatabaseUrl } from "./errors.js";

export interface TestBackend {
  name: "pglite" | "postgres";
  /** Options for createNodeStore. */
  options: { databaseUrl?: string };
  /** Drops the throwaway database (Postgres); a no-op for PGlite. */
  cleanup(): Promise<void>;
}

/** Why the Postgres variant cannot run, or null when it can. Throws in CI when DATABASE_URL is missing. */
export function postgresUnavailableReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.DATABASE_URL) return null;
  if (env.CI === "true" || env.CI === "1") {
    throw new StoreError("DATABASE_URL is not set: the Postgres variant of the store suite must run in CI");
  }
  return "DATABASE_URL is not set; the Postgres variant is skipped outside CI";
}

/** A fresh database on the server of `databaseUrl` (so parallel suites never share tables). */
export async function createThrowawayDatabase(databaseUrl: string): Promise<TestBackend> {
  const name = `store_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  try {
    await admin.connect();
    // graph-node needs a C-collated database; template0 allows choosing the collation.
    await admin.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
  } catch (error) {
    throw new StoreError(`cannot create a test database on ${maskDatabaseUrl(databaseUrl)} (the role needs CREATEDB)`, { cause: error });
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    name: "postgres",
    options: { databaseUrl: url.toString() },
    async cleanup() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
