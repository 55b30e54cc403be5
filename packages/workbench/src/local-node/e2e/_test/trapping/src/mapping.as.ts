import { BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

// Like the real mapping, but an approval of exactly 13 traps (wasm `unreachable`): a deterministic
// failure that, unlike an abort, carries no file or line (e2e/trapLocation.test.ts).
export function ApprovalHandler(event: Approval): void {
  if (event.params.value.equals(BigInt.fromI32(13))) {
    unreachable();
  }
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}
