// Where Matchstick's mock store and graph-node differ: every test here passes under Matchstick's
// semantics (the runner's default) and fails on graph-node's (--strict lists each one).
import { BigInt, Bytes, Entity, Value, ens, store } from "@graphprotocol/graph-ts";
import { assert, clearInBlockStore, describe, test } from "matchstick-as/assembly/index";
import { handleNamed } from "../src/mapping";
import { saveToken } from "./helpers";

describe("Matchstick's mock store", () => {
  test("store.set replaces the entity instead of merging into it", () => {
    handleNamed("r", "first");
    const update = new Entity();
    update.set("id", Value.fromString("r"));
    update.set("name", Value.fromString("second"));
    store.set("Thing", "r", update);
    assert.assertNull(store.get("Thing", "r")!.get("count"));
  });
  test("an immutable entity may be saved again after clearInBlockStore", () => {
    saveToken("again");
    clearInBlockStore();
    saveToken("again");
    assert.entityCount("Token", 1);
  });
  test("an immutable entity may be removed", () => {
    saveToken("gone");
    store.remove("Token", "gone");
    assert.notInStore("Token", "gone");
  });
  test("store.remove of a missing entity is an error", () => {
    store.remove("Thing", "missing");
  }, true);
  test("get_in_block sees only mockInBlockStore entities", () => {
    handleNamed("inblock", "saved");
    assert.assertNull(store.get_in_block("Thing", "inblock"));
  });
  test("fields the schema does not know are kept", () => {
    const thing = new Entity();
    thing.set("id", Value.fromString("u"));
    thing.set("name", Value.fromString("known"));
    thing.set("extra", Value.fromString("unknown"));
    store.set("Thing", "u", thing);
    assert.fieldEquals("Thing", "u", "extra", "unknown");
  });
  test("values are not checked against the field types", () => {
    const thing = new Entity();
    thing.set("id", Value.fromString("k"));
    thing.set("name", Value.fromBigInt(BigInt.fromI32(7)));
    store.set("Thing", "k", thing);
    assert.fieldEquals("Thing", "k", "name", "7");
  });
  test("ens.nameByHash answers Matchstick's mock name", () => {
    assert.stringEquals(ens.nameByHash(Bytes.fromI32(1).toHexString())!, "default");
  });
});
