// The host's entity cache over a synchronous backend, with graph-node's store semantics
// (graph/src/components/store/entity_cache.rs, write.rs): `set` merges into the existing entity and
// drops null fields, the merged entity is validated, immutable entities may be set again only in the
// block that created them and never removed, and a failed handler's writes are rolled back.
import type { SubgraphSchema } from "../../subgraph-schema/index.js";
import type { BlockPtr, EntityChange, EntityData, StoreValue } from "../values/storeValue.js";
import type { EntityStoreBackend } from "./backend.js";
import { HostError } from "../errors.js";
import { canonicalId, entityTypeOf, prepareSetData, validateEntity } from "./schemaCheck.js";
import { bytesToHex } from "../values/hex.js";

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

/** A pending write: the full entity after the write, or null for a removal. */
type Pending = EntityData | null;
type Table<T> = Map<string, Map<string, T>>;

function tableOf<T>(tables: Table<T>, entityType: string): Map<string, T> {
  let t = tables.get(entityType);
  if (t === undefined) {
    t = new Map();
    tables.set(entityType, t);
  }
  return t;
}

interface JournalEntry {
  entityType: string;
  id: string;
  pending: Pending | undefined;
  pendingBlock: number | undefined;
  inBlock: EntityData | undefined;
}

export interface HostStoreOptions {
  /** apiVersion >= 0.0.8: setting fields the schema does not define is an error instead of being ignored. */
  rejectUndefinedFields?: boolean;
}

export function createHostStore(schema: SubgraphSchema, backend: EntityStoreBackend, options: HostStoreOptions = {}): HostStore {
  const rejectUndefinedFields = options.rejectUndefinedFields ?? false;
  // Insertion order of `pending` is first-write order, which takeChanges keeps.
  let pending: Table<Pending> = new Map();
  // The block each pending write happened in (for graph-node's immutability message).
  let pendingBlocks: Table<number> = new Map();
  let inBlock: Table<EntityData> = new Map();
  let block: BlockPtr | null = null;
  let journal: JournalEntry[] | null = null;
  // graph-node's SeqGenerator: generated ids encode the block number and a per-block sequence.
  let idSeq = 0;
  let blockTime: bigint | null = null;

  const generateId = (def: { name: string; idKind: string }): { id: string; value: StoreValue } => {
    const blockNumber = block?.number ?? 0;
    const seq = idSeq++;
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
  };

  const remember = (entityType: string, id: string) => {
    if (journal === null) return;
    journal.push({
      entityType,
      id,
      pending: pending.get(entityType)?.get(id),
      pendingBlock: pendingBlocks.get(entityType)?.get(id),
      inBlock: inBlock.get(entityType)?.get(id),
    });
  };

  const current = (entityType: string, id: string): { data: EntityData | null; block: number | undefined } => {
    const p = pending.get(entityType);
    if (p !== undefined && p.has(id)) return { data: p.get(id)!, block: pendingBlocks.get(entityType)?.get(id) };
    const row = backend.get(entityType, id);
    return row === null ? { data: null, block: undefined } : { data: row.data, block: row.block };
  };
  const notePendingBlock = (entityType: string, id: string) => {
    if (block !== null) tableOf(pendingBlocks, entityType).set(id, block.number);
    else pendingBlocks.get(entityType)?.delete(id);
  };

  const write = (entityType: string, id: string, data: EntityData) => {
    remember(entityType, id);
    const p = tableOf(pending, entityType);
    // Re-inserting moves nothing: Map keeps the first insertion position, i.e. first-write order.
    p.set(id, data);
    notePendingBlock(entityType, id);
    tableOf(inBlock, entityType).set(id, data);
  };

  const changesOf = (table: Table<Pending>): EntityChange[] => {
    const out: EntityChange[] = [];
    for (const [entityType, rows] of table) {
      for (const [id, data] of rows) {
        out.push(data === null ? { op: "remove", entityType, id } : { op: "set", entityType, id, data });
      }
    }
    return out;
  };

  return {
    get block() {
      return block;
    },
    get(entityType, givenId) {
      const id = canonicalId(entityTypeOf(schema, entityType, givenId, "get"), givenId);
      const { data } = current(entityType, id);
      return data === null ? null : new Map(data);
    },
    getInBlock(entityType, givenId) {
      const id = canonicalId(entityTypeOf(schema, entityType, givenId, "get"), givenId);
      const data = inBlock.get(entityType)?.get(id);
      return data === undefined ? null : new Map(data);
    },
    set(entityType, givenId, data) {
      const def = entityTypeOf(schema, entityType, givenId, "set");
      let id = givenId === "auto" ? givenId : canonicalId(def, givenId);
      const fresh = new Map(data);
      if (givenId === "auto" || def.timeseries) {
        const generated = generateId(def);
        id = generated.id;
        fresh.set("id", generated.value);
      }
      if (def.timeseries) {
        if (blockTime === null) throw new HostError("STORE", `Entity ${entityType}[${id}]: a timeseries needs the block's timestamp`);
        fresh.set("timestamp", { kind: "Timestamp", value: blockTime * 1_000_000n });
      }
      const update = prepareSetData(def, id, fresh, rejectUndefinedFields);
      if (def.immutable) {
        const sameBlock = inBlock.get(entityType)?.has(id) === true;
        if (!sameBlock) {
          const existing = current(entityType, id);
          if (existing.data !== null) {
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
      const base = def.immutable ? null : current(entityType, id).data;
      let merged: EntityData;
      if (base === null) {
        merged = update;
        for (const [name, value] of update) if (value.kind === "Null") merged.delete(name);
      } else {
        merged = new Map(base);
        for (const [name, value] of update) {
          if (value.kind === "Null") merged.delete(name);
          else merged.set(name, value);
        }
      }
      validateEntity(schema, def, id, merged);
      write(entityType, id, merged);
    },
    remove(entityType, givenId) {
      const def = entityTypeOf(schema, entityType, givenId, "remove");
      const id = canonicalId(def, givenId);
      if (def.immutable) {
        throw new HostError("IMMUTABLE", `entity type ${entityType} is immutable; removing ${entityType}[${id}] is not possible`, {
          details: { entityType, id },
        });
      }
      remember(entityType, id);
      tableOf(pending, entityType).set(id, null);
      notePendingBlock(entityType, id);
      inBlock.get(entityType)?.delete(id);
    },
    loadRelated(entityType, id, field) {
      const def = entityTypeOf(schema, entityType, id, "load related");
      const fieldDef = def.fieldsByName.get(field);
      if (fieldDef === undefined) throw new HostError("STORE", `Entity ${entityType}[${id}]: unknown field \`${field}\``);
      if (fieldDef.derivedFrom === null || fieldDef.type.kind !== "reference") {
        throw new HostError("STORE", `Entity ${entityType}[${id}]: field is not derived \`${field}\``);
      }
      const targetType = fieldDef.type.target;
      const via = fieldDef.derivedFrom;
      const matches = (data: EntityData) => {
        const v = data.get(via);
        if (v === undefined) return false;
        const hit = (x: typeof v): boolean =>
          (x.kind === "String" && x.value === id) || (x.kind === "Bytes" && bytesToHex(x.value) === id.toLowerCase()) || (x.kind === "Int8" && x.value.toString() === id);
        return v.kind === "Array" ? v.value.some(hit) : hit(v);
      };
      const targets = schema.interfaces.get(targetType)?.implementedBy ?? [targetType];
      const out: EntityData[] = [];
      for (const t of targets) {
        const overlay = pending.get(t);
        for (const row of backend.getDerived?.(t, via, id) ?? []) {
          const rowId = row.get("id");
          const key = rowId === undefined ? "" : rowId.kind === "Bytes" ? bytesToHex(rowId.value) : String((rowId as { value: unknown }).value);
          if (overlay?.has(key)) continue;
          out.push(new Map(row));
        }
        for (const data of overlay?.values() ?? []) {
          if (data !== null && matches(data)) out.push(new Map(data));
        }
      }
      return out;
    },
    beginBlock(next) {
      block = next;
      inBlock = new Map();
      idSeq = 0;
    },
    setBlockTime(seconds) {
      blockTime = seconds;
    },
    clearInBlock() {
      inBlock = new Map();
    },
    mockInBlock(entityType, id, data) {
      write(entityType, id, new Map(data));
    },
    takeChanges() {
      const out = changesOf(pending);
      pending = new Map();
      pendingBlocks = new Map();
      return out;
    },
    peekChanges() {
      return changesOf(pending);
    },
    reset() {
      pending = new Map();
      pendingBlocks = new Map();
      inBlock = new Map();
      journal = null;
    },
    beginHandler() {
      journal = [];
    },
    commitHandler() {
      journal = null;
    },
    rollbackHandler() {
      const entries = journal ?? [];
      journal = null;
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i]!;
        if (e.pending === undefined) pending.get(e.entityType)?.delete(e.id);
        else tableOf(pending, e.entityType).set(e.id, e.pending);
        if (e.pendingBlock === undefined) pendingBlocks.get(e.entityType)?.delete(e.id);
        else tableOf(pendingBlocks, e.entityType).set(e.id, e.pendingBlock);
        if (e.inBlock === undefined) inBlock.get(e.entityType)?.delete(e.id);
        else tableOf(inBlock, e.entityType).set(e.id, e.inBlock);
      }
    },
  };
}
