import { BigInt, store } from "@graphprotocol/graph-ts";
import { Approval, ApprovalToken, ApproveCall, ApproveManyCall } from "../generated/ApprovalToken/ApprovalToken";
import { Marker, Seen, Spender } from "../generated/schema";

export function handleApproval(event: Approval): void {
  let spender = Spender.load(event.params.spender);
  if (spender == null) {
    spender = new Spender(event.params.spender);
    spender.approvals = 0;
  }
  spender.approvals = spender.approvals + 1;
  spender.save();

  const allowance = ApprovalToken.bind(event.address).try_allowance(event.params.owner, event.params.spender);
  const id = event.transaction.hash.toHexString() + "-" + event.logIndex.toString();
  const marker = new Marker(id);
  marker.allowance = allowance.reverted ? BigInt.zero() : allowance.value;
  marker.save();
  if (event.params.value.mod(BigInt.fromI32(2)).isZero()) store.remove("Marker", id);
}

export function handleApprove(call: ApproveCall): void {
  const seen = new Seen(call.transaction.hash);
  seen.method = "approve";
  seen.save();
}

export function handleApproveMany(call: ApproveManyCall): void {
  const seen = new Seen(call.transaction.hash);
  seen.method = "approveMany";
  seen.save();
}
