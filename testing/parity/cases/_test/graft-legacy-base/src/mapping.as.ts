import { BigInt } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Approval, Holder, Tally } from "../generated/schema";

// Every approval updates its owner's holder and the one tally (a new version per block), and adds an
// immutable approval.
export function ApprovalHandler(event: ApprovalEvent): void {
  let holder = Holder.load(event.params.owner);
  if (holder == null) {
    holder = new Holder(event.params.owner);
    holder.approvals = 0;
  }
  holder.approvals = holder.approvals + 1;
  holder.lastValue = event.params.value;
  holder.lastBlock = event.block.number;
  holder.save();

  let tally = Tally.load("all");
  if (tally == null) {
    tally = new Tally("all");
    tally.count = 0;
  }
  tally.count = tally.count + 1;
  tally.lastBlock = event.block.number;
  tally.save();

  const approval = new Approval(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.holder = holder.id;
  approval.value = event.params.value;
  approval.block = event.block.number;
  approval.save();
}
