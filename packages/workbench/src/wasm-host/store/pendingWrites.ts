// Pending writes: recorded per entity (the last write wins, in first-write order) until taken as
// the block's changes.
import type { EntityChange, EntityData } from "../values/storeValue.js";
import { tableOf, type HostStoreState, type Pending, type Table } from "./hostStoreState.js";
import { remember } from "./handlerJournal.js";

export function notePendingBlock(s: HostStoreState, entityType: string, id: string): void {
  if (s.block !== null) tableOf(s.pendingBlocks, entityType).set(id, s.block.number);
  else s.pendingBlocks.get(entityType)?.delete(id);
}

/** Records a write in the pending writes and the in-block cache (journalled for rollback). */
export function write(s: HostStoreState, entityType: string, id: string, data: EntityData): void {
  remember(s, entityType, id);
  const p = tableOf(s.pending, entityType);
  // Re-inserting moves nothing: Map keeps the first insertion position, i.e. first-write order.
  p.set(id, data);
  notePendingBlock(s, entityType, id);
  tableOf(s.inBlock, entityType).set(id, data);
}

export function changesOf(table: Table<Pending>): EntityChange[] {
  const out: EntityChange[] = [];
  for (const [entityType, rows] of table) {
    for (const [id, data] of rows) {
      out.push(data === null ? { op: "remove", entityType, id } : { op: "set", entityType, id, data });
    }
  }
  return out;
}

export function takeChanges(s: HostStoreState): EntityChange[] {
  const out = changesOf(s.pending);
  s.pending = new Map();
  s.pendingBlocks = new Map();
  return out;
}
