// `store.loadRelated`: the entities a @derivedFrom field points at, from the backend overlaid with
// the handler's pending writes (a pending write replaces the stored row, a removal hides it).
import { copyEntity, type EntityData } from "../values/storeValue.js";
import { HostError } from "../errors.js";
import { entityTypeOf } from "./schemaCheck.js";
import { bytesToHex } from "../values/hex.js";
import type { HostStoreState } from "./hostStoreState.js";

export function loadRelated(s: HostStoreState, entityType: string, id: string, field: string): EntityData[] {
  const { schema, backend } = s;
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
    const overlay = s.pending.get(t);
    for (const row of backend.getDerived?.(t, via, id) ?? []) {
      const rowId = row.get("id");
      const key = rowId === undefined ? "" : rowId.kind === "Bytes" ? bytesToHex(rowId.value) : String((rowId as { value: unknown }).value);
      if (overlay?.has(key)) continue;
      out.push(new Map(row));
    }
    for (const data of overlay?.values() ?? []) {
      if (data !== null && matches(data)) out.push(copyEntity(data));
    }
  }
  return out;
}
