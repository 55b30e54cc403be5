import { assert, describe, test, clearStore, beforeAll, afterAll } from "matchstick-as/assembly/index";
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { handleApproval } from "../src/approval-token";
import { createApprovalEvent } from "./approval-token-utils";

describe("Describe entity assertions", () => {
  beforeAll(() => {
    let owner = Address.fromString("0x0000000000000000000000000000000000000001");
    let spender = Address.fromString("0x0000000000000000000000000000000000000002");
    handleApproval(createApprovalEvent(owner, spender, BigInt.fromI32(234)));
  });

  afterAll(() => {
    clearStore();
  });

  test("Approval created and stored", () => {
    assert.entityCount("Approval", 1);
    let id = "0xa16081f360e3847006db660bae1c6d1b2e17ec2a01000000";
    assert.fieldEquals("Approval", id, "owner", "0x0000000000000000000000000000000000000001");
    assert.fieldEquals("Approval", id, "spender", "0x0000000000000000000000000000000000000002");
    assert.fieldEquals("Approval", id, "value", "234");
  });
});
