import { BigInt, Bytes, Entity, dataSource } from "@graphprotocol/graph-ts";
import { Counter, Mirror, Owner, Trace } from "../generated/schema";

// The handlers take the source's entity as graph-ts's Entity (graph-cli's generated classes for the
// sources' schemas are not needed to read it).

function nextSeq(): i32 {
  let counter = Counter.load("trace");
  if (counter == null) {
    counter = new Counter("trace");
    counter.count = 0;
  }
  counter.count = counter.count + 1;
  counter.save();
  return counter.count;
}

function fieldNames(entity: Entity): string {
  const names = new Array<string>();
  for (let i = 0; i < entity.entries.length; i++) names.push(entity.entries[i].key);
  return names.join(",");
}

function trace(handler: string, entityId: string, entity: Entity): void {
  const seq = nextSeq();
  const t = new Trace(seq.toString());
  t.seq = seq;
  t.handler = handler;
  t.entityId = entityId;
  t.fields = fieldNames(entity);
  t.contextKey = dataSource.context().isSet("unused") ? "set" : "unset";
  t.network = dataSource.network();
  t.save();
}

function ownerOf(id: Bytes): Owner {
  let owner = Owner.load(id);
  if (owner == null) {
    owner = new Owner(id);
    owner.grants = 0;
    owner.ticks = 0;
    owner.total = BigInt.zero();
  }
  return owner;
}

export function handleGrant(grant: Entity): void {
  const id = grant.getBytes("id");
  trace("handleGrant", id.toHexString(), grant);
  const owner = ownerOf(grant.getBytes("owner"));
  owner.grants = owner.grants + 1;
  owner.total = owner.total.plus(grant.getBigInt("value"));
  const note = grant.get("note");
  if (note != null) owner.lastNote = note.toString();
  owner.save();

  const mirror = new Mirror(id);
  mirror.owner = owner.id;
  mirror.value = grant.getBigInt("value");
  mirror.block = grant.getBigInt("block");
  if (note != null) mirror.note = note.toString();
  mirror.save();
}

export function handleTick(tick: Entity): void {
  trace("handleTick", tick.getString("id"), tick);
  const owner = ownerOf(tick.getBytes("owner"));
  owner.ticks = owner.ticks + 1;
  owner.total = owner.total.plus(tick.getBigInt("value"));
  owner.save();
}
