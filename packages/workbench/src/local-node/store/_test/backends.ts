// Runs a suite against in-memory PGlite and a throwaway database on the test Postgres server.
import { afterAll, beforeAll, describe } from "vitest";
import { createThrowawayDatabase, type TestBackend } from "../testDatabase.js";
import { createNodeStore } from "../nodeStore.js";
import type { NodeStore, NodeStoreOptions } from "../types.js";

export type BackendFactory = () => Promise<TestBackend>;

export function describeBackends(title: string, suite: (backend: BackendFactory) => void): void {
  describe(`${title} (PGlite)`, () => suite(async () => ({ name: "pglite", options: {}, cleanup: async () => undefined })));
  describe(`${title} (Postgres)`, () => suite(() => createThrowawayDatabase()));
}

/** One store on the suite's backend for the whole describe block (starting PGlite takes seconds); read it inside tests. */
export function useStore(makeBackend: BackendFactory, options: Omit<NodeStoreOptions, "databaseUrl" | "dataDir"> = {}): () => NodeStore {
  let backend: TestBackend | undefined;
  let store: NodeStore | undefined;
  beforeAll(async () => {
    backend = await makeBackend();
    store = await createNodeStore({ ...backend.options, ...options });
  });
  afterAll(async () => {
    await store?.close();
    await backend?.cleanup();
  });
  return () => {
    if (!store) throw new Error("the store is opened in beforeAll");
    return store;
  };
}
