import { BigInt } from "@graphprotocol/graph-ts";
import { afterEach, assert, clearInBlockStore, clearStore, describe, test } from "matchstick-as/assembly/index";
import { ApprovalHandler } from "../src/mapping";
import { OWNER, SPENDER, approvalId, createApprovalEvent, maxUint256 } from "./approval-utils";

describe("ApprovalHandler", () => {
  afterEach(() => {
    clearStore();
    clearInBlockStore();
  });

  test("stores one ApprovalQuery keyed <tx hash>-<log index>", () => {
    ApprovalHandler(createApprovalEvent(OWNER, SPENDER, BigInt.fromI32(500), 7));

    assert.entityCount("ApprovalQuery", 1);
    assert.fieldEquals("ApprovalQuery", approvalId(7), "id", "0xabababababababababababababababababababababababababababababababab-7");
  });

  test("copies owner, spender and value", () => {
    ApprovalHandler(createApprovalEvent(OWNER, SPENDER, BigInt.fromI32(500), 1));

    const id = approvalId(1);
    assert.fieldEquals("ApprovalQuery", id, "owner", "0x1111111111111111111111111111111111111111");
    assert.fieldEquals("ApprovalQuery", id, "spender", "0x2222222222222222222222222222222222222222");
    assert.fieldEquals("ApprovalQuery", id, "value", "500");
  });

  test("copies a zero value", () => {
    ApprovalHandler(createApprovalEvent(OWNER, SPENDER, BigInt.zero(), 2));

    assert.fieldEquals("ApprovalQuery", approvalId(2), "value", "0");
  });

  test("copies the maximum value 2^256-1", () => {
    ApprovalHandler(createApprovalEvent(OWNER, SPENDER, maxUint256(), 3));

    assert.fieldEquals(
      "ApprovalQuery",
      approvalId(3),
      "value",
      "115792089237316195423570985008687907853269984665640564039457584007913129639935",
    );
  });

  test("two Approvals in one transaction with distinct log indexes give two entities", () => {
    ApprovalHandler(createApprovalEvent(OWNER, SPENDER, BigInt.fromI32(1), 4));
    ApprovalHandler(createApprovalEvent(SPENDER, OWNER, BigInt.fromI32(2), 5));

    assert.entityCount("ApprovalQuery", 2);
    assert.fieldEquals("ApprovalQuery", approvalId(4), "owner", OWNER.toHexString());
    assert.fieldEquals("ApprovalQuery", approvalId(5), "owner", SPENDER.toHexString());
    assert.fieldEquals("ApprovalQuery", approvalId(5), "value", "2");
  });

  test("the same event handled twice in one block gives one entity", () => {
    const event = createApprovalEvent(OWNER, SPENDER, BigInt.fromI32(9), 6);
    ApprovalHandler(event);
    ApprovalHandler(event);

    assert.entityCount("ApprovalQuery", 1);
    assert.fieldEquals("ApprovalQuery", approvalId(6), "value", "9");
  });
});
