import { BigInt } from "@graphprotocol/graph-ts";
import { Approval } from "../generated/ApprovalToken/ApprovalToken";
import { ApprovalQuery } from "../generated/schema";

// Like the real mapping, but an approval of exactly 8 allocates without end: 64 KiB buffers pushed to
// an array, so the mapping's linear memory only grows (AssemblyScript's stub runtime never frees).
export function ApprovalHandler(event: Approval): void {
  if (event.params.value.equals(BigInt.fromI32(8))) {
    const hoard = new Array<Uint8Array>();
    while (hoard.length >= 0) {
      const chunk = new Uint8Array(65536);
      chunk[hoard.length & 0xffff] = 1;
      hoard.push(chunk);
    }
  }
  const approval = new ApprovalQuery(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.save();
}
