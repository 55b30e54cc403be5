// The host's entity cache over a synchronous backend, with graph-node's store semantics
// (graph/src/components/store/entity_cache.rs, write.rs): `set` merges into the existing entity and
// drops null fields, the merged entity is validated, immutable entities may be set again only in the
// block that created them and never removed, and a failed handler's writes are rolled back.
// The work is split by concern over one HostStoreState: cacheReads, entityWrites (set, remove),
// pendingWrites, handlerJournal (rollback), relatedEntities (loadRelated).
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import { copyEntity, type BlockPtr, type EntityChange, type EntityData } from "../values/storeValue.js";
import type { EntityStoreBackend } from "./backend.js";
import { createHostStoreState, type WriteObserver } from "./hostStoreState.js";
import { getEntity, getInBlock } from "./cacheReads.js";
import { removeEntity, setEntity } from "./entityWrites.js";
import { changesOf, takeChanges, write } from "./pendingWrites.js";
import { rollbackHandler } from "./handlerJournal.js";
import { loadRelated } from "./relatedEntities.js";

/**
 * The store as the mapping sees it. `set`/`remove` validate against the schema and enforce
 * immutability; reads see the pending writes first, then the backend.
 */
export interface HostStore {
  /** `store.get`: pending writes first, then the backend. */
  get(entityType: string, id: string): EntityData | null;
  /** `store.get_in_block`: only entities written in the current block. */
  getInBlock(entityType: string, id: string): EntityData | null;
  /**
   * `store.set`: validates (unknown type, wrong id, missing non-null fields, wrong kinds) and merges.
   * The id "auto" (and any id of a timeseries type) gets a generated id, as graph-node does.
   */
  set(entityType: string, id: string, data: EntityData): void;
  /** `store.remove`; a deterministic error for immutable entity types. */
  remove(entityType: string, id: string): void;
  /** `store.loadRelated`: the entities a @derivedFrom field of `entityType` `id` points at. */
  loadRelated(entityType: string, id: string, field: string): EntityData[];
  /** Starts a new block: the in-block cache is emptied; pending writes stay until taken. */
  beginBlock(block: BlockPtr): void;
  /** The block's time in seconds (timeseries `timestamp` fields); set by the instance from the trigger's block. */
  setBlockTime(seconds: bigint | null): void;
  /** The current block, or null before the first `beginBlock`. */
  readonly block: BlockPtr | null;
  /** Ends the current block without starting another (Matchstick's `clearInBlockStore`). */
  clearInBlock(): void;
  /** Puts an entity in the in-block cache and the pending writes without validation (`mockInBlockStore`). */
  mockInBlock(entityType: string, id: string, data: EntityData): void;
  /** Writes since the last take, in first-write order, the last write per entity. */
  takeChanges(): EntityChange[];
  /** Pending writes without taking them. */
  peekChanges(): EntityChange[];
  /** Drops pending writes and the in-block cache (Matchstick's `clearStore`, with the backend's own clear). */
  reset(): void;
  /** Handler boundaries: writes since `beginHandler` are undone by `rollbackHandler` (graph-node reverts a failed handler). */
  beginHandler(): void;
  commitHandler(): void;
  rollbackHandler(): void;
}

export interface HostStoreOptions {
  /** apiVersion >= 0.0.8: setting fields the schema does not define is an error instead of being ignored. */
  rejectUndefinedFields?: boolean;
  /** Sees every `set` and `remove` as the mapping made it (the local node's proof of indexing). */
  observeWrite?: WriteObserver;
}

export function createHostStore(schema: SubgraphSchema, backend: EntityStoreBackend, options: HostStoreOptions = {}): HostStore {
  const s = createHostStoreState(schema, backend, options.rejectUndefinedFields ?? false, options.observeWrite ?? null);
  return {
    get block() {
      return s.block;
    },
    get: (entityType, givenId) => getEntity(s, entityType, givenId),
    getInBlock: (entityType, givenId) => getInBlock(s, entityType, givenId),
    set: (entityType, givenId, data) => setEntity(s, entityType, givenId, data),
    remove: (entityType, givenId) => removeEntity(s, entityType, givenId),
    loadRelated: (entityType, id, field) => loadRelated(s, entityType, id, field),
    beginBlock(next) {
      s.block = next;
      s.inBlock = new Map();
      s.idSeq = 0;
    },
    setBlockTime(seconds) {
      s.blockTime = seconds;
    },
    clearInBlock() {
      s.inBlock = new Map();
    },
    mockInBlock(entityType, id, data) {
      write(s, entityType, id, copyEntity(data));
    },
    takeChanges: () => takeChanges(s),
    peekChanges: () => changesOf(s.pending),
    reset() {
      s.pending = new Map();
      s.pendingBlocks = new Map();
      s.inBlock = new Map();
      s.dropped = new Map();
      s.journal = null;
    },
    beginHandler() {
      s.journal = [];
    },
    commitHandler() {
      s.journal = null;
    },
    rollbackHandler: () => rollbackHandler(s),
  };
}
