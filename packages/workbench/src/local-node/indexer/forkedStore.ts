// A debug-forked deployment's store as its mappings see it (graph-node's store_get in
// runtime/wasm/src/module/context.rs): a `store.get` or `store.get_in_block` that finds nothing asks the
// fork, and an entity found there is set into the block's store as if the handler had saved it (so it
// is written, hashed into the proof of indexing, and found locally from then on).
import { wrapHostStore, type EntityData, type HostStore } from "../../wasm-host/index.js";

/** Answers the fork's entity, or null; throws (non-deterministically) when the base cannot answer. */
export type ForkLookup = (entityType: string, id: string) => EntityData | null;

export function withDebugFork(store: HostStore, lookup: ForkLookup): HostStore {
  function fromFork(entityType: string, id: string): EntityData | null {
    const fetched = lookup(entityType, id);
    if (fetched === null) return null;
    store.set(entityType, id, fetched);
    return fetched;
  }
  return wrapHostStore(store, {
    get: (entityType, id) => store.get(entityType, id) ?? fromFork(entityType, id),
    getInBlock: (entityType, id) => store.getInBlock(entityType, id) ?? fromFork(entityType, id),
  });
}
