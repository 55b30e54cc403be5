// Runs a suite against in-memory PGlite and, when DATABASE_URL is set, a throwaway Postgres database.
import { describe } from "vitest";
import { createThrowawayDatabase, postgresUnavailableReason, type TestBackend } from "../testDatabase.js";

export type BackendFactory = () => Promise<TestBackend>;

export function describeBackends(title: string, suite: (backend: BackendFactory) => void): void {
  describe(`${title} (PGlite)`, () => suite(async () => ({ name: "pglite", options: {}, cleanup: async () => undefined })));
  // Throws in CI when DATABASE_URL is missing, which fails the file loudly instead of skipping.
  const reason = postgresUnavailableReason();
  if (reason !== null) {
    console.warn(`${title} (Postgres): ${reason}`);
    describe.skip(`${title} (Postgres): ${reason}`, () => undefined);
    return;
  }
  describe(`${title} (Postgres)`, () => suite(() => createThrowawayDatabase(process.env.DATABASE_URL ?? "")));
}
