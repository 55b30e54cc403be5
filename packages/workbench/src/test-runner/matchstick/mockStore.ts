// Matchstick 0.6's mock store (src/context/mod.rs: update_store, get_store_entity, mock_store_remove,
// load_related_entities, clear_store, clear_cache_store), as the host's entity cache:
// - store.set checks only that every required field is present and not null, then REPLACES the entity
//   with exactly the data given (null fields and fields the schema does not know are kept); no kind
//   checks, no immutability, no id checks; an unknown entity type stops the run (a Matchstick panic);
// - store.get reads the map (an unknown type is simply absent); store.get_in_block reads only the
//   separate in-block map that mockInBlockStore fills;
// - store.remove of an entity that is not there is an error; immutable entities may be removed;
// - loadRelated scans the derived type's entities for a field whose value (or list item) prints as the id;
// - nothing is rolled back when a test fails: writes stay until clearStore.
import type { BlockPtr, EntityData, HostStore } from "../../wasm-host/index.js";
import { HostError } from "../../wasm-host/index.js";
import type { MockSchema } from "./mockSchema.js";
import type { TestStore } from "./testStore.js";
import { valueToString } from "./values.js";

type Table = Map<string, Map<string, EntityData>>;

export interface MockStoreDeps {
  schema: MockSchema;
  /** Stops the run as Matchstick's `logging::critical!` does. */
  critical(message: string): never;
}

const copy = (data: EntityData | undefined): EntityData | null => (data === undefined ? null : new Map(data));

function put(table: Table, entityType: string, id: string, data: EntityData): void {
  let rows = table.get(entityType);
  if (rows === undefined) table.set(entityType, (rows = new Map()));
  rows.set(id, new Map(data));
}

/** Matchstick's required-field check (the same for store.set and mockInBlockStore). */
export function checkRequiredFields({ schema, critical }: MockStoreDeps, entityType: string, data: EntityData): void {
  const required = schema.entities.get(entityType) ?? critical("Something went wrong! Could not find the entity defined in the GraphQL schema.");
  for (const field of required) {
    const value = data.get(field);
    if (value === undefined) throw new HostError("STORE", `Missing value for non-nullable field '${field}' for an entity of type '${entityType}'.`);
    if (value.kind === "Null") throw new HostError("STORE", `The required field '${field}' for an entity of type '${entityType}' is null.`);
  }
}

export function createMockStore(deps: MockStoreDeps): TestStore {
  let store: Table = new Map();
  let cache: Table = new Map();
  let block: BlockPtr | null = null;

  const loadRelated = (entityType: string, id: string, field: string): EntityData[] => {
    const out: EntityData[] = [];
    for (const [derivedType, derivedField] of deps.schema.derived.get(entityType)?.get(field) ?? []) {
      for (const data of store.get(derivedType)?.values() ?? []) {
        const value = data.get(derivedField);
        if (value === undefined) continue;
        const ids = value.kind === "Bytes" || value.kind === "String" ? [value] : value.kind === "Array" ? value.value : [];
        if (ids.some((v) => valueToString(v) === id)) out.push(new Map(data));
      }
    }
    return out;
  };

  const hostStore: HostStore = {
    get: (entityType, id) => copy(store.get(entityType)?.get(id)),
    getInBlock: (entityType, id) => copy(cache.get(entityType)?.get(id)),
    set(entityType, id, data) {
      checkRequiredFields(deps, entityType, data);
      put(store, entityType, id, data);
    },
    remove(entityType, id) {
      const rows = store.get(entityType);
      if (rows === undefined || !rows.delete(id)) {
        throw new HostError("STORE", `(store.remove) Entity with type '${entityType}' and id '${id}' does not exist.`);
      }
    },
    loadRelated,
    beginBlock(next) {
      block = next;
    },
    setBlockTime() {},
    get block() {
      return block;
    },
    clearInBlock() {
      cache = new Map();
    },
    mockInBlock(entityType, id, data) {
      put(cache, entityType, id, data);
    },
    takeChanges: () => [],
    peekChanges: () => [],
    reset() {
      store = new Map();
    },
    beginHandler() {},
    commitHandler() {},
    rollbackHandler() {},
  };

  return {
    semantics: "matchstick",
    hostStore,
    backend: { get: (entityType, id) => (store.get(entityType)?.has(id) ? { data: store.get(entityType)!.get(id)! } : null) },
    hasType: (entityType) => store.has(entityType),
    get: (entityType, id) => copy(store.get(entityType)?.get(id)),
    count: (entityType) => store.get(entityType)?.size ?? 0,
    types: () => [...store.keys()],
    entries: (entityType) => [...(store.get(entityType)?.entries() ?? [])],
    loadRelated,
    clear() {
      store = new Map();
    },
    clearInBlock() {
      cache = new Map();
    },
    mockInBlock: (entityType, id, data) => put(cache, entityType, id, data),
  };
}
