// The status API's entityChangesInBlock(subgraphId, blockNumber) in graph-node's format: updates and
// deletions grouped by entity type (types in name order), entities by id, each entity's fields by name,
// values as graph-node turns its store values into GraphQL (BigInt, BigDecimal, Int8 and Bytes as
// strings, Int as a number).
import type { BlockEntityChanges } from "../store/index.js";
import type { StoreValue } from "../../wasm-host/index.js";

type Json = string | number | boolean | null | Json[];

function jsonOf(value: StoreValue): Json {
  switch (value.kind) {
    case "String":
    case "BigDecimal":
      return value.value;
    case "Int":
      return value.value;
    case "Bool":
      return value.value;
    case "Null":
      return null;
    case "Bytes":
      return `0x${Buffer.from(value.value).toString("hex")}`;
    case "BigInt":
    case "Int8":
    case "Timestamp":
      return value.value.toString();
    case "Array":
      return value.value.map(jsonOf);
  }
}

/** Code-unit order, which is byte order for the ASCII of ids, type and field names. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function entityChangesJson(changes: BlockEntityChanges): { updates: { type: string; entities: Record<string, Json>[] }[]; deletions: { type: string; entities: string[] }[] } {
  const updates = new Map<string, { id: string; entity: Record<string, Json> }[]>();
  for (const { entityType, data } of changes.sets) {
    const entity: Record<string, Json> = {};
    for (const name of [...data.keys()].sort(byText)) entity[name] = jsonOf(data.get(name)!);
    const id = data.get("id");
    const list = updates.get(entityType) ?? [];
    list.push({ id: id ? String(jsonOf(id)) : "", entity });
    updates.set(entityType, list);
  }
  const deletions = new Map<string, string[]>();
  for (const { entityType, id } of changes.removals) deletions.set(entityType, [...(deletions.get(entityType) ?? []), id]);
  return {
    updates: [...updates.keys()].sort(byText).map((type) => ({ type, entities: updates.get(type)!.sort((a, b) => byText(a.id, b.id)).map((e) => e.entity) })),
    deletions: [...deletions.keys()].sort(byText).map((type) => ({ type, entities: deletions.get(type)!.sort(byText) })),
  };
}
