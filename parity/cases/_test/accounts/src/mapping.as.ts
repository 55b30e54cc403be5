import { BigInt } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Account, Approval, Spender } from "../generated/schema";

// Accounts and spenders change with every approval (mutable entities, compared over time); each
// approval references both (derived fields and nested filters on the other side).
export function ApprovalHandler(event: ApprovalEvent): void {
  let owner = Account.load(event.params.owner);
  if (owner == null) {
    owner = new Account(event.params.owner);
    owner.approvals = BigInt.zero();
    owner.total = BigInt.zero();
    owner.label = "account-" + event.params.owner.toHexString().slice(2, 8);
  }
  owner.approvals = owner.approvals.plus(BigInt.fromI32(1));
  owner.total = owner.total.plus(event.params.value);
  owner.lastValue = event.params.value;
  owner.save();

  let spender = Spender.load(event.params.spender);
  if (spender == null) {
    spender = new Spender(event.params.spender);
    spender.approvals = BigInt.zero();
  }
  spender.approvals = spender.approvals.plus(BigInt.fromI32(1));
  spender.save();

  const approval = new Approval(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = owner.id;
  approval.spender = spender.id;
  approval.value = event.params.value;
  approval.block = event.block.number;
  approval.save();
}
