import { BigInt, log } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

// Saves every approval and logs at a level chosen by its value: 0 info, 1 error, 2 warning (with the
// transaction), 3 debug (with the block), 4 info (with the entity id), 5 an error that mentions a
// timeout, 99 critical (which fails the deployment). Every handled approval also logs one info line.
export function ApprovalHandler(event: Approval): void {
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();

  const value = event.params.value;
  if (value.equals(BigInt.fromI32(0))) log.info("approval of nothing seen", []);
  if (value.equals(BigInt.fromI32(1))) log.error("approval of one looks wrong", []);
  if (value.equals(BigInt.fromI32(2))) log.warning("approval of two is odd, transaction {}", [event.transaction.hash.toHexString()]);
  if (value.equals(BigInt.fromI32(3))) log.debug("approval of three at block {}", [event.block.number.toString()]);
  if (value.equals(BigInt.fromI32(4))) log.info("approval of four stored as {}", [approval.id]);
  if (value.equals(BigInt.fromI32(5))) log.error("approval of five ran into a Timeout upstream", []);
  if (value.equals(BigInt.fromI32(99))) log.critical("approval of 99 cannot be handled", []);
  log.info("approval handled", []);
}
