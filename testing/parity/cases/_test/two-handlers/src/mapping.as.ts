import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

// Both would write the approval; graph-node runs neither (two handlers match one log).
export function ApprovalHandler(event: Approval): void {
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}

export function SecondHandler(event: Approval): void {
  ApprovalHandler(event);
}
