import { Approval as ApprovalEvent } from "../generated/ApprovalToken/ApprovalToken";
import { Owner, Point } from "../generated/schema";

// One point per approval; the id and timestamp written here are replaced by graph-node's.
export function ApprovalHandler(event: ApprovalEvent): void {
  const point = new Point(7);
  point.timestamp = 1;
  point.owner = event.params.owner;
  point.spender = event.params.spender;
  point.value = event.params.value;
  point.block = event.block.number;
  point.save();

  let owner = Owner.load(event.params.owner);
  if (owner == null) {
    owner = new Owner(event.params.owner);
    owner.points = 0;
  }
  owner.points = owner.points + 1;
  owner.lastValue = event.params.value;
  owner.save();
}
