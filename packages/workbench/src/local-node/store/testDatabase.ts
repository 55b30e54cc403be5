// Test helpers for the store backends: in-memory PGlite, and a throwaway database on the Postgres server
// named by DATABASE_URL. Under vitest that is always set: the global setup (testing/globalSetup.ts) starts
// an embedded server when the environment names none.
import { randomBytes } from "node:crypto";
import { dropDatabase, ensureDatabase } from "../../lib/embedded-postgres/index.js";
import { StoreError, maskDatabaseUrl } from "./errors.js";

export interface TestBackend {
  name: "pglite" | "postgres";
  /** Options for createNodeStore. */
  options: { databaseUrl?: string };
  /** Drops the throwaway database (Postgres); a no-op for PGlite. */
  cleanup(): Promise<void>;
}

/** The test server's URL; an error that says why when there is none. */
export function testServerUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  throw new StoreError("DATABASE_URL is not set: run the suite through vitest, whose global setup (testing/globalSetup.ts) starts an embedded PostgreSQL server");
}

/** A fresh database on the server of `databaseUrl` (so parallel suites never share tables). */
export async function createThrowawayDatabase(databaseUrl: string = testServerUrl()): Promise<TestBackend> {
  const name = `store_test_${randomBytes(6).toString("hex")}`;
  let url: string;
  try {
    url = await ensureDatabase(databaseUrl, name);
  } catch (error) {
    throw new StoreError(`cannot create a test database on ${maskDatabaseUrl(databaseUrl)} (the role needs CREATEDB)`, { cause: error });
  }
  return { name: "postgres", options: { databaseUrl: url }, cleanup: () => dropDatabase(databaseUrl, name) };
}
