import { Bytes, Entity, Value, store } from "@graphprotocol/graph-ts";

export function saveToken(id: string): void {
  const token = new Entity();
  token.set("id", Value.fromString(id));
  token.set("owner", Value.fromBytes(Bytes.fromHexString("0xaa")));
  store.set("Token", id, token);
}
