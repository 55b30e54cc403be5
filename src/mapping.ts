import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

/** One immutable ApprovalQuery per Approval log, keyed `<tx hash>-<log index>`. */
export function ApprovalHandler(event: Approval): void {
  const id = event.transaction.hash.toHexString() + "-" + event.logIndex.toString();
  const approval = new ApprovalQuery(id);
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}
