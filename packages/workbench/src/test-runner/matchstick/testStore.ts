// The store a test file runs against, in one of two semantics:
// - "matchstick" (the default): Matchstick 0.6's mock store (src/context/mod.rs), a map of entities
//   that `store.set` replaces, with only its required-field check;
// - "graph-node" (`--strict`): the shared host's entity cache over an in-memory backend, i.e. what
//   the mapping would meet on graph-node (merges, immutability, kind checks, ...).
// Either way the host writes through `hostStore` (HostOptions.entityCache), and the assertions and
// logs read the store as Matchstick shows it.
import type { EntityData, EntityStoreBackend, HostStore } from "../../wasm-host/index.js";

export type StoreSemantics = "matchstick" | "graph-node";

export interface TestStore {
  readonly semantics: StoreSemantics;
  /** What the host's store.* functions act on. */
  readonly hostStore: HostStore;
  /** HostOptions.store (the host reads it only through hostStore). */
  readonly backend: EntityStoreBackend;
  /** Whether the type has ever held an entity since the last clear (Matchstick's "No entities with type"). */
  hasType(entityType: string): boolean;
  /** An entity as the assertions see it, fields saved as null included. */
  get(entityType: string, id: string): EntityData | null;
  count(entityType: string): number;
  /** Types holding entities, for logStore. */
  types(): string[];
  entries(entityType: string): [string, EntityData][];
  /** The entities a derived field of an entity points at (logEntity with showRelated). */
  loadRelated(entityType: string, id: string, field: string): EntityData[];
  /** clearStore(). */
  clear(): void;
  /** clearInBlockStore(). */
  clearInBlock(): void;
  /** mockInBlockStore(): seen only by store.get_in_block (the caller has checked required fields). */
  mockInBlock(entityType: string, id: string, data: EntityData): void;
}
