import { BigInt } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalPoint, Owner } from "../generated/schema";

// Each approval is a data point of its owner's timeseries; graph-node rolls them up per hour and day.
export function ApprovalHandler(event: ApprovalEvent): void {
  let owner = Owner.load(event.params.owner);
  if (owner == null) {
    owner = new Owner(event.params.owner);
    owner.approvals = 0;
  }
  owner.approvals = owner.approvals + 1;
  owner.save();

  const point = new ApprovalPoint(0);
  point.owner = owner.id;
  point.spender = event.params.spender;
  point.value = event.params.value;
  point.weight = event.params.value.mod(BigInt.fromI32(5)).toI32() + 1;
  point.save();
}
