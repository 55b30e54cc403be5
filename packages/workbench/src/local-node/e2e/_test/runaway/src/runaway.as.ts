import { BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

// Like the real mapping, but an approval of exactly 7 never returns: a handler in an endless loop,
// which calls no host function while it spins.
export function ApprovalHandler(event: Approval): void {
  if (event.params.value.equals(BigInt.fromI32(7))) {
    let spins: i64 = event.logIndex.toI64();
    while (spins >= 0) {
      spins = (spins + 1) & 0x7fffffffffffffff;
    }
  }
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}
