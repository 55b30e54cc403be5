import { BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { Account, ApprovalQuery } from "../generated/schema";

// An approval of 13 fails after its account was updated; with nonFatalErrors the handler is skipped.
export function handleApproval(event: Approval): void {
  let account = Account.load(event.params.owner);
  if (account == null) {
    account = new Account(event.params.owner);
    account.approvals = 0;
    account.total = BigInt.zero();
  }
  account.approvals = account.approvals + 1;
  account.total = account.total.plus(event.params.value);
  account.save();
  if (event.params.value.equals(BigInt.fromI32(13))) {
    throw new Error("unlucky approval value 13");
  }
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}
