// Object sizes of ethereum.Event/Block/Transaction per apiVersion, as graph-node lays them out.
import { beforeAll, describe, expect, it } from "vitest";
import { createHarness, fixtureModule, type Harness } from "../_test/harness.js";
import { createEthereumObjectWriter, eventLayoutFor } from "./ethereumObjects.js";
import { approvalEvent, syntheticBlock, syntheticTransaction } from "../_test/approvalEvents.js";
import { TypeId } from "./typeIds.js";

let h: Harness;
beforeAll(async () => {
  await fixtureModule("mapping.as.ts");
  h = await createHarness("mapping.as.ts");
}, 180_000);

const sizes = (apiVersion: string) => {
  const codec = h.instance.context.codec;
  const writer = createEthereumObjectWriter(codec, eventLayoutFor(apiVersion));
  const block = syntheticBlock(3);
  const event = approvalEvent(block, syntheticTransaction(3, 0), 0, "0x" + "11".repeat(20), "0x" + "22".repeat(20), 5n);
  const ptr = writer.writeEvent(event);
  const blockPtr = codec.readU32(ptr + 16);
  const txPtr = codec.readU32(ptr + 20);
  return {
    event: codec.readU32(ptr - 4),
    block: codec.readU32(blockPtr - 4),
    transaction: codec.readU32(txPtr - 4),
    eventClass: codec.readU32(ptr - 8) === codec.classId(TypeId.EthereumEvent),
    blockNumber: codec.readBigInt(codec.readU32(blockPtr + 28)),
  };
};

describe("ethereum objects per apiVersion", () => {
  it("0.0.5: Block without baseFeePerGas, Transaction without nonce, Event without receipt", () => {
    expect(sizes("0.0.5")).toEqual({ event: 28, block: 56, transaction: 32, eventClass: true, blockNumber: 3n });
  });
  it("0.0.6: adds baseFeePerGas and nonce", () => {
    expect(sizes("0.0.6")).toMatchObject({ event: 28, block: 60, transaction: 36 });
  });
  it("0.0.7 and later: adds the receipt pointer", () => {
    expect(sizes("0.0.7")).toMatchObject({ event: 32, block: 60, transaction: 36 });
    expect(sizes("0.0.9")).toMatchObject({ event: 32, block: 60, transaction: 36 });
  });
});
