// An in-memory EntityStoreBackend for the runner and tests: applies EntityChange[] and answers reads.
import type { EntityChange, EntityData } from "../values/storeValue.js";
import type { EntityStoreBackend } from "./backend.js";
import { bytesToHex } from "../values/hex.js";

/** A synchronous in-memory store. Entities keep the block they were last written in. */
export interface MemoryEntityStore extends EntityStoreBackend {
  /** Applies changes in order (set replaces the whole entity; remove deletes it). */
  apply(changes: readonly EntityChange[], block?: number): void;
  /** Number of entities of a type (all types when omitted). */
  count(entityType?: string): number;
  /** Entities of a type, in insertion order: [id, data]. */
  entries(entityType: string): [string, EntityData][];
  /** Entity type names that hold at least one entity. */
  types(): string[];
  /** Removes everything. */
  clear(): void;
}

export function createMemoryEntityStore(): MemoryEntityStore {
  const tables = new Map<string, Map<string, { data: EntityData; block?: number }>>();
  const table = (entityType: string) => {
    let t = tables.get(entityType);
    if (t === undefined) {
      t = new Map();
      tables.set(entityType, t);
    }
    return t;
  };
  return {
    get(entityType, id) {
      const row = tables.get(entityType)?.get(id);
      return row === undefined ? null : row;
    },
    getDerived(entityType, field, id) {
      const out: EntityData[] = [];
      for (const { data } of tables.get(entityType)?.values() ?? []) {
        const v = data.get(field);
        if (v === undefined) continue;
        if (v.kind === "String" && v.value === id) out.push(data);
        else if (v.kind === "Bytes" && bytesToHex(v.value) === id.toLowerCase()) out.push(data);
        else if (v.kind === "Int8" && v.value.toString() === id) out.push(data);
        else if (v.kind === "Array" && v.value.some((x) => (x.kind === "String" && x.value === id) || (x.kind === "Bytes" && bytesToHex(x.value) === id.toLowerCase()))) out.push(data);
      }
      return out;
    },
    apply(changes, block) {
      for (const change of changes) {
        if (change.op === "set") table(change.entityType).set(change.id, block === undefined ? { data: change.data } : { data: change.data, block });
        else tables.get(change.entityType)?.delete(change.id);
      }
    },
    count(entityType) {
      if (entityType !== undefined) return tables.get(entityType)?.size ?? 0;
      let n = 0;
      for (const t of tables.values()) n += t.size;
      return n;
    },
    entries(entityType) {
      return [...(tables.get(entityType)?.entries() ?? [])].map(([id, row]) => [id, row.data]);
    },
    types() {
      return [...tables.entries()].filter(([, t]) => t.size > 0).map(([name]) => name);
    },
    clear() {
      tables.clear();
    },
  };
}

