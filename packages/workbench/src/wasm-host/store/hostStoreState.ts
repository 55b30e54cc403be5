// The host store's state: pending writes (what the handlers changed since the last take), the
// current block's cache, the handler journal and the block clock. The host store's modules take it
// explicitly.
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import type { BlockPtr, EntityChange, EntityData } from "../values/storeValue.js";
import type { EntityStoreBackend } from "./backend.js";

/** A pending write: the full entity after the write, or null for a removal. */
export type Pending = EntityData | null;
export type Table<T> = Map<string, Map<string, T>>;

/** What an entity's slots held before a write, so that a failed handler's writes can be undone. */
export interface JournalEntry {
  entityType: string;
  id: string;
  pending: Pending | undefined;
  pendingBlock: number | undefined;
  inBlock: EntityData | undefined;
  dropped: Pending | undefined;
}

export interface HostStoreState {
  readonly schema: SubgraphSchema;
  readonly backend: EntityStoreBackend;
  readonly rejectUndefinedFields: boolean;
  // Insertion order of `pending` is first-write order, which takeChanges keeps.
  pending: Table<Pending>;
  // The block each pending write happened in (for graph-node's immutability message).
  pendingBlocks: Table<number>;
  inBlock: Table<EntityData>;
  /**
   * Writes that skipDuplicates dropped (null: a dropped removal). graph-node's entity cache keeps what
   * the mapping wrote even when the store drops it, so later loads read these until a reset.
   */
  dropped: Table<Pending>;
  block: BlockPtr | null;
  /** Writes of the running handler; null outside beginHandler/commitHandler. */
  journal: JournalEntry[] | null;
  // graph-node's SeqGenerator: generated ids encode the block number and a per-block sequence.
  idSeq: number;
  blockTime: bigint | null;
  /** Sees each `store.set` (the data the mapping passed, before merging) and `store.remove` as it is called. */
  readonly observeWrite: WriteObserver | null;
}

/**
 * Called synchronously with each write as the mapping made it, before it is checked against what is
 * stored (graph-node's proof of indexing sees these). The data is the store's own: read it, never keep it.
 */
export type WriteObserver = (write: EntityChange) => void;

export function createHostStoreState(schema: SubgraphSchema, backend: EntityStoreBackend, rejectUndefinedFields: boolean, observeWrite: WriteObserver | null = null): HostStoreState {
  return {
    schema,
    backend,
    rejectUndefinedFields,
    pending: new Map(),
    pendingBlocks: new Map(),
    inBlock: new Map(),
    dropped: new Map(),
    block: null,
    journal: null,
    idSeq: 0,
    blockTime: null,
    observeWrite,
  };
}

export function tableOf<T>(tables: Table<T>, entityType: string): Map<string, T> {
  let t = tables.get(entityType);
  if (t === undefined) {
    t = new Map();
    tables.set(entityType, t);
  }
  return t;
}
