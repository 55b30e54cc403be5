// Entity-handler fixture (subgraph composition): the handler receives the source's entity as an Entity
// and records what it saw (its field names in order, a value, the block time) in a Note.
import { BigInt, Entity, Value, store } from "@graphprotocol/graph-ts";

export function handleSourceEntity(entity: Entity): void {
  let names = new Array<string>();
  for (let i = 0; i < entity.entries.length; i++) names.push(entity.entries[i].key);
  let note = new Entity();
  let id = entity.getBytes("id");
  note.set("id", Value.fromBytes(id));
  let value: BigInt = entity.getBigInt("value");
  note.set("text", Value.fromString(names.join(",") + ":" + value.toString()));
  store.set("Note", id.toHexString(), note);
}
