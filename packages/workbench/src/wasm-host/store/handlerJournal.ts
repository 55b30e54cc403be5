// Handler boundaries: each write of a running handler first records what it overwrites, so a failed
// handler's writes can be undone (graph-node reverts a failed handler).
import { tableOf, type HostStoreState } from "./hostStoreState.js";

export function remember(s: HostStoreState, entityType: string, id: string): void {
  if (s.journal === null) return;
  s.journal.push({
    entityType,
    id,
    pending: s.pending.get(entityType)?.get(id),
    pendingBlock: s.pendingBlocks.get(entityType)?.get(id),
    inBlock: s.inBlock.get(entityType)?.get(id),
    dropped: s.dropped.get(entityType)?.get(id),
  });
}

/** Restores every slot the handler wrote, newest first. */
export function rollbackHandler(s: HostStoreState): void {
  const entries = s.journal ?? [];
  s.journal = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.pending === undefined) s.pending.get(e.entityType)?.delete(e.id);
    else tableOf(s.pending, e.entityType).set(e.id, e.pending);
    if (e.pendingBlock === undefined) s.pendingBlocks.get(e.entityType)?.delete(e.id);
    else tableOf(s.pendingBlocks, e.entityType).set(e.id, e.pendingBlock);
    if (e.inBlock === undefined) s.inBlock.get(e.entityType)?.delete(e.id);
    else tableOf(s.inBlock, e.entityType).set(e.id, e.inBlock);
    if (e.dropped === undefined) s.dropped.get(e.entityType)?.delete(e.id);
    else tableOf(s.dropped, e.entityType).set(e.id, e.dropped);
  }
}
