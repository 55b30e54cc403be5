import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { BlockMark, Sequence, Trace } from "../generated/schema";

// Records one handler call with a global sequence number: the order in which the engine ran them.
export function trace(handler: string, block: BigInt, address: Address): void {
  let seq = Sequence.load("global");
  if (seq == null) {
    seq = new Sequence("global");
    seq.next = 0;
  }
  const t = new Trace(seq.next.toString());
  t.seq = seq.next;
  t.handler = handler;
  t.block = block;
  t.address = Bytes.fromHexString(address.toHexString());
  t.save();
  seq.next = seq.next + 1;
  seq.save();
  // Several data sources write this immutable entity in one block; the last write wins.
  const mark = new BlockMark(block.toString());
  mark.writer = handler;
  mark.save();
}
