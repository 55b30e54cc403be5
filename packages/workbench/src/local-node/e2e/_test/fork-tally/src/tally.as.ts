import { BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { Owner, Spender } from "../generated/schema";

export function handleApproval(event: Approval): void {
  let spender = Spender.load(event.params.spender);
  if (spender == null) {
    spender = new Spender(event.params.spender);
    spender.approvals = 0;
  }
  spender.approvals = spender.approvals + 1;
  spender.save();

  let owner = Owner.load(event.params.owner);
  if (owner == null) {
    owner = new Owner(event.params.owner);
    owner.approvals = 0;
    owner.total = BigInt.zero();
    owner.big = 0;
  }
  owner.approvals = owner.approvals + 1;
  owner.total = owner.total.plus(event.params.value);
  // Int8 past 2^53: a value that survives the fork's decoding only as an exact integer.
  owner.big = owner.big + 9007199254740993;
  owner.label = "owner with " + owner.approvals.toString() + " approvals";
  owner.lastSpender = spender.id;
  owner.save();
}
