import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { Approval, ApproveCall as ApproveFunctionCall, ApproveManyCall } from "../generated/ApprovalToken/ApprovalToken";
import { ApproveCall, CallBlock, Trace } from "../generated/schema";

let traced = 0;

function trace(what: string, block: BigInt): void {
  const t = new Trace(block.toString() + "-" + traced.toString());
  t.block = block;
  t.seq = traced;
  t.what = what;
  t.save();
  traced++;
}

export function handleApproval(event: Approval): void {
  trace("log " + event.logIndex.toString(), event.block.number);
}

export function handleApprove(call: ApproveFunctionCall): void {
  const c = new ApproveCall(call.transaction.hash);
  c.method = "approve";
  c.from = call.from;
  c.spenders = [changetype<Bytes>(call.inputs.spender)];
  c.values = [call.inputs.value];
  c.output = call.outputs.value0;
  c.block = call.block.number;
  c.save();
  trace("approve", call.block.number);
}

export function handleApproveMany(call: ApproveManyCall): void {
  const c = new ApproveCall(call.transaction.hash);
  c.method = "approveMany";
  c.from = call.from;
  const spenders: Bytes[] = [];
  const list: Address[] = call.inputs.spenders;
  for (let i = 0; i < list.length; i++) spenders.push(changetype<Bytes>(list[i]));
  c.spenders = spenders;
  c.values = call.inputs.values;
  c.output = call.outputs.value0;
  c.block = call.block.number;
  c.save();
  trace("approveMany", call.block.number);
}

export function handleCallBlock(block: ethereum.Block): void {
  const b = new CallBlock(block.number.toString());
  b.number = block.number;
  b.save();
  trace("block", block.number);
}
