// Runs a suite against in-memory PGlite and a throwaway database on the test Postgres server.
import { describe } from "vitest";
import { createThrowawayDatabase, type TestBackend } from "../testDatabase.js";

export type BackendFactory = () => Promise<TestBackend>;

export function describeBackends(title: string, suite: (backend: BackendFactory) => void): void {
  describe(`${title} (PGlite)`, () => suite(async () => ({ name: "pglite", options: {}, cleanup: async () => undefined })));
  describe(`${title} (Postgres)`, () => suite(() => createThrowawayDatabase()));
}
