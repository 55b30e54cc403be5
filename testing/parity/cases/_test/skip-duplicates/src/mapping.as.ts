import { store } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Approval, FirstApproval } from "../generated/schema";

// Every approval saves its owner's FirstApproval; every third one removes it first. Only the owner's
// first block of approvals may change it; later blocks' writes are dropped.
export function ApprovalHandler(event: ApprovalEvent): void {
  const owner = event.params.owner;
  if (event.logIndex.toI32() % 3 == 2) store.remove("FirstApproval", owner.toHexString());

  const first = new FirstApproval(owner);
  first.spender = event.params.spender;
  first.value = event.params.value;
  first.block = event.block.number;
  first.logIndex = event.logIndex;
  first.save();

  const loaded = FirstApproval.load(owner)!;
  const approval = new Approval(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = owner;
  approval.value = event.params.value;
  approval.firstValueLoaded = loaded.value;
  approval.firstBlockLoaded = loaded.block;
  approval.save();
}
