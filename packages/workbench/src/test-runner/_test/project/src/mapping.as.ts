import { BigInt, Entity, Value, store } from "@graphprotocol/graph-ts";

/** Stands in for a generated-entity handler: saves a Thing named `name`. */
export function handleNamed(id: string, name: string): void {
  const thing = new Entity();
  thing.set("id", Value.fromString(id));
  thing.set("name", Value.fromString(name));
  thing.set("count", Value.fromBigInt(BigInt.fromI32(name.length)));
  store.set("Thing", id, thing);
}

export function handleUnnamed(): void {}
