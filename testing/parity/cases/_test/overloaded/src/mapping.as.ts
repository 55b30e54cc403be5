import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { CallResult, TaggedEvent } from "../generated/schema";

// The contract's calls by signature, as graph-cli's bindings make them, without depending on the names
// codegen gives overloads (echo, echo1, ...).
class Calls extends ethereum.SmartContract {
  static bind(address: Address): Calls {
    return new Calls("OverloadedCalls", address);
  }
}

function record(event: ethereum.Event, variant: string, result: string): void {
  const row = new CallResult(event.transaction.hash.toHexString() + "-" + event.logIndex.toString() + "-" + variant);
  row.variant = variant;
  row.result = result;
  row.block = event.block.number;
  row.save();
}

function seen(event: ethereum.Event, variant: string): TaggedEvent {
  const row = new TaggedEvent(event.transaction.hash.toHexString() + "-" + event.logIndex.toString());
  row.variant = variant;
  return row;
}

export function handleTaggedBytes(event: ethereum.Event): void {
  const tag = event.parameters[0].value.toBytes();
  const amount = event.parameters[1].value.toBigInt();
  const row = seen(event, "bytes32,uint256");
  row.tag = tag;
  row.amount = amount;
  row.save();

  const calls = Calls.bind(event.address);
  // A 2-byte value for a bytes32 parameter: graph-node pads it to 32 bytes on the right.
  const short = calls.call("echo", "echo(bytes32):(bytes32)", [ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x1234"))]);
  record(event, "echo(bytes32) short", short[0].toBytes().toHexString());
  const full = calls.call("echo", "echo(bytes32):(bytes32)", [ethereum.Value.fromFixedBytes(tag)]);
  record(event, "echo(bytes32) full", full[0].toBytes().toHexString());
  const doubled = calls.call("echo", "echo(uint256):(uint256)", [ethereum.Value.fromUnsignedBigInt(amount)]);
  record(event, "echo(uint256)", doubled[0].toBigInt().toString());
  // One byte for a bytes4 and a small BigInt for a uint8.
  const mixed = calls.call("echo", "echo(bytes4,uint8):(uint256)", [
    ethereum.Value.fromFixedBytes(Bytes.fromHexString("0xab")),
    ethereum.Value.fromUnsignedBigInt(BigInt.fromI32(7)),
  ]);
  record(event, "echo(bytes4,uint8)", mixed[0].toBigInt().toString());

  // try_ calls: an empty fixed-bytes value pads to the zero tag, which `strict` refuses.
  const zero = calls.tryCall("strict", "strict(bytes32):(bytes32)", [ethereum.Value.fromFixedBytes(Bytes.empty())]);
  record(event, "strict(bytes32) empty", zero.reverted ? "reverted" : zero.value[0].toBytes().toHexString());
  const one = calls.tryCall("strict", "strict(bytes32):(bytes32)", [ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x01"))]);
  record(event, "strict(bytes32) 0x01", one.reverted ? "reverted" : one.value[0].toBytes().toHexString());
  const declared = calls.tryCall("strict", "strict(bytes32):(bytes32)", [ethereum.Value.fromFixedBytes(tag)]);
  record(event, "strict(bytes32) tag", declared.reverted ? "reverted" : declared.value[0].toBytes().toHexString());

  const encoded = ethereum.encode(ethereum.Value.fromTuple(changetype<ethereum.Tuple>([
    ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x1234")),
    ethereum.Value.fromI32(-1),
  ])));
  record(event, "encode((bytes2,int))", encoded === null ? "null" : encoded.toHexString());

  // 300 for a uint8 parameter: a value wider than its type, which graph-node's type check refuses.
  if (amount.equals(BigInt.fromI32(300))) {
    calls.call("echo", "echo(bytes4,uint8):(uint256)", [
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0xab")),
      ethereum.Value.fromUnsignedBigInt(amount),
    ]);
  }

  // 13 asks for 33 bytes in a fixed-bytes value: graph-node cannot convert it and fails the handler.
  if (amount.equals(BigInt.fromI32(13))) {
    const overlong = new Bytes(33);
    calls.call("echo", "echo(bytes32):(bytes32)", [ethereum.Value.fromFixedBytes(overlong)]);
  }
}

export function handleTaggedAddress(event: ethereum.Event): void {
  const who = event.parameters[0].value.toAddress();
  const row = seen(event, "address,uint256");
  row.who = who;
  row.amount = event.parameters[1].value.toBigInt();
  row.save();
  const echoed = Calls.bind(event.address).call("echo", "echo(address):(address)", [ethereum.Value.fromAddress(who)]);
  record(event, "echo(address)", echoed[0].toAddress().toHexString());
}

export function handleTaggedLabel(event: ethereum.Event): void {
  const row = seen(event, "string");
  row.label = event.parameters[0].value.toString();
  row.save();
}
