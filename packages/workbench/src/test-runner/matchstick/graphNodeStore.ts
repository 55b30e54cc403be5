// The `--strict` store: graph-node's semantics, i.e. the shared host's entity cache (merges, drops
// null fields, kind checks, immutability, rollback-free here since tests call functions directly)
// over an in-memory backend. Two Matchstick behaviours stay on top so that only the store's
// semantics differ between the modes: mockInBlockStore entities are seen by store.get_in_block only,
// and a field saved as null still reads "null" in assert.fieldEquals.
import { createHostStore, createMemoryEntityStore, type EntityData, type HostStore } from "../../wasm-host/index.js";
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import type { TestStore } from "./testStore.js";

const key = (entityType: string, id: string): string => `${entityType}\0${id}`;

export function createGraphNodeStore(schema: SubgraphSchema): TestStore {
  const backend = createMemoryEntityStore();
  const inner = createHostStore(schema, backend);
  const explicitNulls = new Map<string, Set<string>>();
  const inBlockMocks = new Map<string, EntityData>();
  // The host keeps a block's writes pending; the assertions read the backend, so move them first.
  const sync = (): void => {
    const changes = inner.takeChanges();
    if (changes.length > 0) backend.apply(changes, inner.block?.number);
  };

  const hostStore: HostStore = {
    get: (entityType, id) => inner.get(entityType, id),
    getInBlock: (entityType, id) => inBlockMocks.get(key(entityType, id)) ?? inner.getInBlock(entityType, id),
    set(entityType, id, data) {
      inner.set(entityType, id, data);
      const nulls = [...data].filter(([, v]) => v.kind === "Null").map(([name]) => name);
      if (nulls.length > 0) explicitNulls.set(key(entityType, id), new Set(nulls));
      else explicitNulls.delete(key(entityType, id));
    },
    remove: (entityType, id) => inner.remove(entityType, id),
    loadRelated: (entityType, id, field) => inner.loadRelated(entityType, id, field),
    beginBlock: (block) => inner.beginBlock(block),
    setBlockTime: (seconds) => inner.setBlockTime(seconds),
    get block() {
      return inner.block;
    },
    clearInBlock: () => inner.clearInBlock(),
    mockInBlock: (entityType, id, data) => inner.mockInBlock(entityType, id, data),
    takeChanges: () => inner.takeChanges(),
    peekChanges: () => inner.peekChanges(),
    reset: () => inner.reset(),
    beginHandler: () => inner.beginHandler(),
    commitHandler: () => inner.commitHandler(),
    rollbackHandler: () => inner.rollbackHandler(),
  };

  return {
    semantics: "graph-node",
    hostStore,
    backend,
    hasType(entityType) {
      sync();
      return backend.count(entityType) > 0;
    },
    get(entityType, id) {
      sync();
      const row = backend.get(entityType, id);
      if (row === null) return null;
      const data = new Map(row.data);
      for (const field of explicitNulls.get(key(entityType, id)) ?? []) if (!data.has(field)) data.set(field, { kind: "Null" });
      return data;
    },
    count(entityType) {
      sync();
      return backend.count(entityType);
    },
    types() {
      sync();
      return backend.types();
    },
    entries(entityType) {
      sync();
      return backend.entries(entityType);
    },
    loadRelated: (entityType, id, field) => inner.loadRelated(entityType, id, field),
    clear() {
      inner.reset();
      backend.clear();
      explicitNulls.clear();
    },
    clearInBlock() {
      sync();
      inner.clearInBlock();
      inBlockMocks.clear();
    },
    mockInBlock(entityType, id, data) {
      inBlockMocks.set(key(entityType, id), new Map(data));
    },
  };
}
