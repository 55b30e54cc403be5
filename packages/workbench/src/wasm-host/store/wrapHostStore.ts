// A HostStore that passes every call to another, but for those it overrides: the one place that lists
// the interface's members for wrappers (a debug fork, the profile's counters). Spreading the store would
// not do: `block` is a getter, and spreading copies its value once.
import type { HostStore } from "./hostStore.js";

export type HostStoreOverrides = Partial<Omit<HostStore, "block">>;

export function wrapHostStore(store: HostStore, overrides: HostStoreOverrides): HostStore {
  const o = overrides;
  return {
    get block() {
      return store.block;
    },
    get: o.get ?? ((entityType, id) => store.get(entityType, id)),
    getInBlock: o.getInBlock ?? ((entityType, id) => store.getInBlock(entityType, id)),
    set: o.set ?? ((entityType, id, data) => store.set(entityType, id, data)),
    remove: o.remove ?? ((entityType, id) => store.remove(entityType, id)),
    loadRelated: o.loadRelated ?? ((entityType, id, field) => store.loadRelated(entityType, id, field)),
    beginBlock: o.beginBlock ?? ((block) => store.beginBlock(block)),
    setBlockTime: o.setBlockTime ?? ((seconds) => store.setBlockTime(seconds)),
    clearInBlock: o.clearInBlock ?? (() => store.clearInBlock()),
    mockInBlock: o.mockInBlock ?? ((entityType, id, data) => store.mockInBlock(entityType, id, data)),
    takeChanges: o.takeChanges ?? (() => store.takeChanges()),
    peekChanges: o.peekChanges ?? (() => store.peekChanges()),
    reset: o.reset ?? (() => store.reset()),
    beginHandler: o.beginHandler ?? (() => store.beginHandler()),
    commitHandler: o.commitHandler ?? (() => store.commitHandler()),
    rollbackHandler: o.rollbackHandler ?? (() => store.rollbackHandler()),
  };
}
