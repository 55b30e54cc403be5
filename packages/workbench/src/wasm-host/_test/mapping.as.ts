// Store and event fixture: an Approval handler as graph-cli generates it (without codegen classes)
// plus store operations, called by instance.test.ts and store.test.ts.
import { BigDecimal, BigInt, Bytes, Entity, Value, ethereum, store } from "@graphprotocol/graph-ts";

export function handleApproval(event: ethereum.Event): void {
  const id = event.transaction.hash.toHexString() + "-" + event.logIndex.toString();
  const entity = new Entity();
  entity.set("id", Value.fromString(id));
  entity.set("owner", Value.fromBytes(event.parameters[0].value.toAddress()));
  entity.set("spender", Value.fromBytes(event.parameters[1].value.toAddress()));
  entity.set("value", Value.fromBigInt(event.parameters[2].value.toBigInt()));
  store.set("ApprovalQuery", id, entity);
}

/** Copies what the host wrote into the event into an entity, to check the event layout. */
export function handleInspect(event: ethereum.Event): void {
  const e = new Entity();
  const id = event.transaction.hash.toHexString();
  e.set("id", Value.fromString(id));
  e.set("address", Value.fromBytes(event.address));
  e.set("logIndex", Value.fromBigInt(event.logIndex));
  const logType = event.logType;
  if (logType !== null) e.set("logType", Value.fromString(logType));
  e.set("blockNumber", Value.fromBigInt(event.block.number));
  e.set("blockHash", Value.fromBytes(event.block.hash));
  e.set("timestamp", Value.fromBigInt(event.block.timestamp));
  const baseFee = event.block.baseFeePerGas;
  if (baseFee !== null) e.set("baseFee", Value.fromBigInt(baseFee));
  e.set("from", Value.fromBytes(event.transaction.from));
  const to = event.transaction.to;
  if (to !== null) e.set("to", Value.fromBytes(to));
  e.set("txValue", Value.fromBigInt(event.transaction.value));
  e.set("nonce", Value.fromBigInt(event.transaction.nonce));
  e.set("input", Value.fromBytes(event.transaction.input));
  const receipt = event.receipt;
  let receiptLogs = -1;
  if (receipt !== null) receiptLogs = receipt.logs.length;
  e.set("receiptLogs", Value.fromI32(receiptLogs));
  e.set("paramNames", Value.fromStringArray([event.parameters[0].name, event.parameters[1].name]));
  e.set("flag", Value.fromBoolean(event.parameters[1].value.toBoolean()));
  e.set("text", Value.fromString(event.parameters[0].value.toString()));
  store.set("Inspect", id, e);
}

export function handleFailing(event: ethereum.Event): void {
  const e = new Entity();
  e.set("id", Value.fromString("before-failure"));
  e.set("name", Value.fromString("x"));
  store.set("Item", "before-failure", e);
  assert(event.logIndex.toI32() < 0, "log index must be negative");
}

export function setItem(id: string, name: string, count: i32): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  e.set("name", Value.fromString(name));
  if (count >= 0) e.set("count", Value.fromI32(count));
  store.set("Item", id, e);
}

export function setItemCountOnly(id: string, count: i32): void {
  const e = new Entity();
  e.set("count", Value.fromI32(count));
  store.set("Item", id, e);
}

export function setItemWithoutName(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  store.set("Item", id, e);
}

export function setItemWrongKind(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  e.set("name", Value.fromI32(5));
  store.set("Item", id, e);
}

export function setItemWrongId(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id + "-other"));
  e.set("name", Value.fromString("n"));
  store.set("Item", id, e);
}

export function setItemOwned(id: string, owner: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  e.set("name", Value.fromString("owned"));
  e.set("owner", Value.fromString(owner));
  store.set("Item", id, e);
}

export function setItemAllKinds(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  e.set("name", Value.fromString("all"));
  e.set("count", Value.fromI32(-7));
  e.set("tags", Value.fromStringArray(["a", "b"]));
  e.set("big", Value.fromBigInt(BigInt.fromString("-123456789012345678901234567890")));
  e.set("dec", Value.fromBigDecimal(BigDecimal.fromString("-1.50")));
  e.set("flag", Value.fromBoolean(true));
  e.set("raw", Value.fromBytes(Bytes.fromHexString("0xdeadBEEF")));
  e.set("i8", Value.fromI64(-9007199254740993));
  e.set("ts", Value.fromTimestamp(1700000000000000));
  e.set("unknownField", Value.fromString("dropped"));
  store.set("Item", id, e);
}

export function setAccount(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  store.set("Account", id, e);
}

export function setAccountWithDerived(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  e.set("items", Value.fromStringArray(["x"]));
  store.set("Account", id, e);
}

export function countRelated(id: string): i32 {
  return store.loadRelated("Account", id, "items").length;
}

export function getItemName(id: string): string {
  const e = store.get("Item", id);
  if (e === null) return "<null>";
  return e.getString("name");
}

export function getItemInBlock(id: string): bool {
  return store.get_in_block("Item", id) !== null;
}

export function getItem(id: string): Entity | null {
  return store.get("Item", id);
}

export function removeItem(id: string): void {
  store.remove("Item", id);
}

export function setFrozen(idHex: string, value: i32): void {
  const e = new Entity();
  e.set("id", Value.fromBytes(Bytes.fromHexString(idHex)));
  e.set("value", Value.fromBigInt(BigInt.fromI32(value)));
  store.set("Frozen", idHex, e);
}

export function removeFrozen(idHex: string): void {
  store.remove("Frozen", idHex);
}

export function setUnknownType(id: string): void {
  const e = new Entity();
  e.set("id", Value.fromString(id));
  store.set("Nope", id, e);
}

export function echoEntity(e: Entity): Entity {
  return e;
}

export function handleBlock(block: ethereum.Block): void {
  const e = new Entity();
  e.set("id", Value.fromString("block-" + block.number.toString()));
  e.set("name", Value.fromString(block.hash.toHexString()));
  e.set("big", Value.fromBigInt(block.timestamp));
  store.set("Item", "block-" + block.number.toString(), e);
}

export function handleCall(call: ethereum.Call): void {
  const e = new Entity();
  e.set("id", Value.fromString("call"));
  e.set("name", Value.fromString(call.inputValues[0].name + "=" + call.inputValues[0].value.toBigInt().toString() + "->" + call.outputValues[0].value.toBoolean().toString()));
  e.set("raw", Value.fromBytes(call.to));
  e.set("big", Value.fromBigInt(call.block.number));
  store.set("Item", "call", e);
}

export function setTick(price: i32): void {
  const e = new Entity();
  e.set("price", Value.fromBigInt(BigInt.fromI32(price)));
  store.set("Tick", "auto", e);
}

export function setNoteAuto(text: string): void {
  const e = new Entity();
  e.set("text", Value.fromString(text));
  store.set("Note", "auto", e);
}

export function setItemAuto(): void {
  const e = new Entity();
  e.set("name", Value.fromString("auto"));
  store.set("Item", "auto", e);
}
