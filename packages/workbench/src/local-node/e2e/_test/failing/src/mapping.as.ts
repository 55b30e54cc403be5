import { BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

// Like the real mapping, but an approval of exactly 13 aborts: a deterministic handler failure.
export function ApprovalHandler(event: Approval): void {
  if (event.params.value.equals(BigInt.fromI32(13))) {
    throw new Error("unlucky approval value 13");
  }
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}
