// The host's entity cache over a synchronous backend, with graph-node's store semantics.
import type { BlockPtr, EntityChange, EntityData } from "../entity/storeValue.js";

/**
 * The store as the mapping sees it. `set`/`remove` validate against the schema and enforce
 * immutability; reads see the pending writes first, then the backend.
 */
export interface HostStore {
  /** `store.get`: pending writes first, then the backend. Returns a copy. */
  get(entityType: string, id: string): EntityData | null;
  /** `store.get_in_block`: only entities written in the current block. */
  getInBlock(entityType: string, id: string): EntityData | null;
  /** `store.set`: validates (unknown type, wrong id, missing non-null fields, wrong kinds) and writes. */
  set(entityType: string, id: string, data: EntityData): void;
  /** `store.remove`; a deterministic error for immutable entity types. */
  remove(entityType: string, id: string): void;
  /** `store.loadRelated`: the entities a @derivedFrom field of `entityType` `id` points at. */
  loadRelated(entityType: string, id: string, field: string): EntityData[];
  /** Starts a new block: the in-block cache is emptied; pending writes stay until taken. */
  beginBlock(block: BlockPtr): void;
  /** The current block, or null before the first `beginBlock`. */
  readonly block: BlockPtr | null;
  /** Ends the current block without starting another (Matchstick's `clearInBlockStore`). */
  clearInBlock(): void;
  /** Puts an entity in the in-block cache as if set in this block, without validation (`mockInBlockStore`). */
  mockInBlock(entityType: string, id: string, data: EntityData): void;
  /** Writes since the last take, in first-write order, the last write per entity. */
  takeChanges(): EntityChange[];
  /** Drops pending writes and the in-block cache (Matchstick's `clearStore`, with the backend's own clear). */
  reset(): void;
}
