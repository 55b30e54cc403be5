import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { newMockEvent } from "matchstick-as/assembly/index";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";

export const OWNER = Address.fromString("0x1111111111111111111111111111111111111111");
export const SPENDER = Address.fromString("0x2222222222222222222222222222222222222222");
export const TX_HASH = Bytes.fromHexString("0xabababababababababababababababababababababababababababababababab");

/** 2^256 - 1, the largest uint256 an Approval can carry. */
export function maxUint256(): BigInt {
  return BigInt.fromString("115792089237316195423570985008687907853269984665640564039457584007913129639935");
}

/** An Approval(owner, spender, value) in transaction TX_HASH at the given log index and block. */
export function createApprovalEvent(owner: Address, spender: Address, value: BigInt, logIndex: i32, blockNumber: i32 = 1): Approval {
  const event = changetype<Approval>(newMockEvent());
  event.transaction.hash = TX_HASH;
  event.logIndex = BigInt.fromI32(logIndex);
  event.block.number = BigInt.fromI32(blockNumber);
  event.parameters = new Array<ethereum.EventParam>();
  event.parameters.push(new ethereum.EventParam("owner", ethereum.Value.fromAddress(owner)));
  event.parameters.push(new ethereum.EventParam("spender", ethereum.Value.fromAddress(spender)));
  event.parameters.push(new ethereum.EventParam("value", ethereum.Value.fromUnsignedBigInt(value)));
  return event;
}

/** The entity id the handler must produce: `<tx hash>-<log index>`. */
export function approvalId(logIndex: i32): string {
  return TX_HASH.toHexString() + "-" + logIndex.toString();
}
