import { newMockEvent } from "matchstick-as";
import { ethereum, Address, BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";

export function createApprovalEvent(owner: Address, spender: Address, value: BigInt): Approval {
  let approvalEvent = changetype<Approval>(newMockEvent());
  approvalEvent.parameters = new Array();
  approvalEvent.parameters.push(new ethereum.EventParam("owner", ethereum.Value.fromAddress(owner)));
  approvalEvent.parameters.push(new ethereum.EventParam("spender", ethereum.Value.fromAddress(spender)));
  approvalEvent.parameters.push(new ethereum.EventParam("value", ethereum.Value.fromUnsignedBigInt(value)));
  return approvalEvent;
}
