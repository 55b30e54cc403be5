// Reads as the mapping sees them: its own pending writes first, then writes skipDuplicates dropped, then
// the backend.
import { copyEntity, type EntityData } from "../values/storeValue.js";
import { canonicalId, entityTypeOf } from "./schemaCheck.js";
import type { HostStoreState } from "./hostStoreState.js";

/** The entity as the handler sees it, with the block it was written in (if known). */
export function current(s: HostStoreState, entityType: string, id: string): { data: EntityData | null; block: number | undefined } {
  const d = s.dropped.get(entityType);
  // A dropped write is always newer than a pending one: once a write is dropped the entity is stored, and
  // no write of it is pending again.
  if (d !== undefined && d.has(id)) return { data: d.get(id)!, block: undefined };
  return stored(s, entityType, id);
}

/** The entity as it is or will be stored: pending writes, then the backend (no dropped writes). */
export function stored(s: HostStoreState, entityType: string, id: string): { data: EntityData | null; block: number | undefined } {
  const p = s.pending.get(entityType);
  if (p !== undefined && p.has(id)) return { data: p.get(id)!, block: s.pendingBlocks.get(entityType)?.get(id) };
  const row = s.backend.get(entityType, id);
  return row === null ? { data: null, block: undefined } : { data: row.data, block: row.block };
}

export function getEntity(s: HostStoreState, entityType: string, givenId: string): EntityData | null {
  const id = canonicalId(entityTypeOf(s.schema, entityType, givenId, "get"), givenId);
  const { data } = current(s, entityType, id);
  return data === null ? null : copyEntity(data);
}

export function getInBlock(s: HostStoreState, entityType: string, givenId: string): EntityData | null {
  const id = canonicalId(entityTypeOf(s.schema, entityType, givenId, "get"), givenId);
  const data = s.inBlock.get(entityType)?.get(id);
  return data === undefined ? null : copyEntity(data);
}
