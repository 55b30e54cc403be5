import { BigInt } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Grant, Holder } from "../generated/schema";

export function handleApproval(event: ApprovalEvent): void {
  const grant = new Grant(event.transaction.hash.concatI32(event.logIndex.toI32()));
  grant.owner = event.params.owner;
  grant.spender = event.params.spender;
  grant.value = event.params.value;
  grant.block = event.block.number;
  grant.logIndex = event.logIndex;
  if (event.params.value.mod(BigInt.fromI32(2)).notEqual(BigInt.zero())) grant.note = "odd " + event.params.value.toString();
  grant.save();

  let holder = Holder.load(event.params.owner);
  if (holder == null) {
    holder = new Holder(event.params.owner);
    holder.grants = 0;
  }
  holder.grants = holder.grants + 1;
  holder.save();
}
