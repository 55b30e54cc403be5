import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Approval, Holder, Mark } from "../generated/schema";

// After the graft: holders copied from the base count on, and are marked with the block they were
// first seen in after it; each approval also leaves a mark.
export function ApprovalHandler(event: ApprovalEvent): void {
  let holder = Holder.load(event.params.owner);
  if (holder == null) {
    holder = new Holder(event.params.owner);
    holder.approvals = 0;
  }
  if (holder.since == null) holder.since = "after graft, block " + event.block.number.toString();
  holder.approvals = holder.approvals + 1;
  holder.lastValue = event.params.value;
  holder.lastBlock = event.block.number;
  holder.save();

  const id = event.transaction.hash.toHexString() + "-" + event.logIndex.toString();
  const approval = new Approval(id);
  approval.holder = holder.id;
  approval.value = event.params.value;
  approval.block = event.block.number;
  approval.save();

  const mark = new Mark(id);
  mark.holder = holder.id;
  mark.block = event.block.number;
  mark.save();
}
