import { BigInt, ethereum, store } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent, ApprovalToken } from "../generated/ApprovalToken/ApprovalToken";
import { Holder, Pair, Start } from "../generated/schema";

// Each approval updates its owner's holder; a pair's second approval removes the pair, its first asks
// the token for the allowance (an eth_call).
export function handleApproval(event: ApprovalEvent): void {
  let holder = Holder.load(event.params.owner.toHexString());
  if (holder == null) {
    holder = new Holder(event.params.owner.toHexString());
    holder.approvals = BigInt.zero();
  }
  holder.approvals = holder.approvals.plus(BigInt.fromI32(1));
  holder.lastValue = event.params.value;
  holder.lastBlock = event.block.number.toI32();
  holder.active = !event.params.value.isZero();
  holder.save();

  const id = event.params.owner.toHexString() + "-" + event.params.spender.toHexString();
  if (Pair.load(id) != null) {
    store.remove("Pair", id);
    return;
  }
  const pair = new Pair(id);
  pair.value = event.params.value;
  const allowance = ApprovalToken.bind(event.address).try_allowance(event.params.owner, event.params.spender);
  pair.allowance = allowance.reverted ? BigInt.zero() : allowance.value;
  pair.tags = ["pair", event.params.spender.toHexString().slice(2, 6)];
  pair.save();
}

export function handleStart(block: ethereum.Block): void {
  const start = new Start("start");
  start.number = block.number;
  start.hash = block.hash;
  start.save();
}
