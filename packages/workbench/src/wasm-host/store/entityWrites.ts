// `store.set` and `store.remove` with graph-node's semantics (entity_cache.rs, write.rs): set merges
// into the existing entity and drops null fields, the merged entity is validated, immutable entities
// may be set again only in the block that created them and are never removed (with skipDuplicates such
// writes are dropped); "auto" and timeseries ids are generated.
import { copyEntity, type EntityData, type StoreValue } from "../values/storeValue.js";
import type { EntityTypeDef } from "../../subgraph-schema/index.js";
import { HostError } from "../errors.js";
import { canonicalId, entityTypeOf, prepareSetData, validateEntity } from "./schemaCheck.js";
import { bytesToHex } from "../values/hex.js";
import { tableOf, type HostStoreState } from "./hostStoreState.js";
import { current, stored } from "./cacheReads.js";
import { remember } from "./handlerJournal.js";
import { notePendingBlock, write } from "./pendingWrites.js";

/** graph-node's SeqGenerator: the block number and a per-block sequence. */
function generateId(s: HostStoreState, def: { name: string; idKind: string }): { id: string; value: StoreValue } {
  const blockNumber = s.block?.number ?? 0;
  const seq = s.idSeq++;
  if (def.idKind === "Int8") {
    const value = (BigInt(blockNumber) << 32n) | BigInt(seq);
    return { id: value.toString(), value: { kind: "Int8", value } };
  }
  if (def.idKind === "Bytes") {
    const bytes = new Uint8Array(8);
    const view = new DataView(bytes.buffer);
    view.setInt32(0, blockNumber);
    view.setUint32(4, seq);
    return { id: bytesToHex(bytes), value: { kind: "Bytes", value: bytes } };
  }
  throw new HostError("STORE", "String does not support generating ids");
}

export function setEntity(s: HostStoreState, entityType: string, givenId: string, data: EntityData): void {
  const def = entityTypeOf(s.schema, entityType, givenId, "set");
  let id = givenId === "auto" ? givenId : canonicalId(def, givenId);
  const fresh = copyEntity(data);
  if (givenId === "auto" || def.timeseries) {
    const generated = generateId(s, def);
    id = generated.id;
    fresh.set("id", generated.value);
  }
  if (def.timeseries) {
    if (s.blockTime === null) throw new HostError("STORE", `Entity ${entityType}[${id}]: a timeseries needs the block's timestamp`);
    fresh.set("timestamp", { kind: "Timestamp", value: s.blockTime * 1_000_000n });
  }
  const update = prepareSetData(def, id, fresh, s.rejectUndefinedFields);
  s.observeWrite?.({ op: "set", entityType: def.name, id, data: update });
  if (def.immutable) {
    const sameBlock = s.inBlock.get(entityType)?.has(id) === true;
    if (!sameBlock) {
      const existing = stored(s, entityType, id);
      if (existing.data !== null) {
        if (def.skipDuplicates) {
          dropWrite(s, def, entityType, id, current(s, entityType, id).data, update);
          return;
        }
        const block = s.block;
        const key = `${entityType}[${id}]`;
        const at = block === null ? "the current block" : `block ${block.number}`;
        const before = existing.block === undefined ? "an earlier block" : `block ${existing.block}`;
        throw new HostError("IMMUTABLE", `entity ${key} is immutable; inserting it at ${at} is not possible as it was already inserted at ${before}`, {
          details: { entityType, id, block: block?.number ?? null, insertedAt: existing.block ?? null },
        });
      }
    }
  }
  // An immutable entity set twice in one block: the last write wins; mutable: merge into the existing entity.
  const base = def.immutable ? null : current(s, entityType, id).data;
  let merged: EntityData;
  if (base === null) {
    merged = update;
    for (const [name, value] of update) if (value.kind === "Null") merged.delete(name);
  } else {
    merged = copyEntity(base);
    for (const [name, value] of update) {
      if (value.kind === "Null") merged.delete(name);
      else merged.set(name, value);
    }
  }
  validateEntity(s.schema, def, id, merged);
  write(s, entityType, id, merged);
}

export function removeEntity(s: HostStoreState, entityType: string, givenId: string): void {
  // graph-node records a removal as called, before it checks the type or the id.
  s.observeWrite?.({ op: "remove", entityType, id: givenId });
  const def = entityTypeOf(s.schema, entityType, givenId, "remove");
  const id = canonicalId(def, givenId);
  if (def.immutable) {
    if (def.skipDuplicates) {
      dropRemoval(s, entityType, id);
      return;
    }
    throw new HostError("IMMUTABLE", `entity type ${entityType} is immutable; removing ${entityType}[${id}] is not possible`, {
      details: { entityType, id },
    });
  }
  remember(s, entityType, id);
  tableOf(s.pending, entityType).set(id, null);
  notePendingBlock(s, entityType, id);
  s.inBlock.get(entityType)?.delete(id);
}

/**
 * A later block's save of an existing skipDuplicates entity: the store keeps the first version, but
 * graph-node's entity cache holds the merged write, which the mapping's later loads read.
 */
function dropWrite(s: HostStoreState, def: EntityTypeDef, entityType: string, id: string, cached: EntityData | null, update: EntityData): void {
  const merged: EntityData = cached === null ? new Map() : copyEntity(cached);
  for (const [name, value] of update) {
    if (value.kind === "Null") merged.delete(name);
    else merged.set(name, value);
  }
  validateEntity(s.schema, def, id, merged);
  remember(s, entityType, id);
  tableOf(s.dropped, entityType).set(id, merged);
}

/**
 * A removal of a skipDuplicates entity: one written in this block is simply not written (graph-node
 * folds the insert and the removal into nothing); a stored one stays stored, while the cache, and so
 * later loads, see it removed.
 */
function dropRemoval(s: HostStoreState, entityType: string, id: string): void {
  remember(s, entityType, id);
  const pending = s.pending.get(entityType);
  if (pending?.has(id) && s.inBlock.get(entityType)?.has(id)) {
    pending.delete(id);
    s.pendingBlocks.get(entityType)?.delete(id);
    s.inBlock.get(entityType)?.delete(id);
    return;
  }
  if (stored(s, entityType, id).data !== null) tableOf(s.dropped, entityType).set(id, null);
}
