import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Tick } from "../generated/schema";

export function handleApproval(event: ApprovalEvent): void {
  const tick = new Tick(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  tick.owner = event.params.owner;
  tick.value = event.params.value;
  tick.block = event.block.number;
  tick.save();
}
