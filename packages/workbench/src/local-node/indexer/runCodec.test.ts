import { describe, expect, it } from "vitest";
import type { EthereumBlockInput, EthereumTransactionInput, EthereumValue } from "../../wasm-host/index.js";
import type { BlockJob, LoadedEventTrigger, Trigger } from "./hostProtocol.js";
import { EventValuePacker, packRun, unpackLoadedEvent, unpackRun } from "./runCodec.js";
import { hexByteStrings } from "./_test/hexByteStrings.js";

const block: EthereumBlockInput = {
  hash: `0x${"11".repeat(32)}`,
  parentHash: `0x${"22".repeat(32)}`,
  unclesHash: "0x",
  author: `0x${"33".repeat(20)}`,
  stateRoot: "0x",
  transactionsRoot: "0x",
  receiptsRoot: "0x",
  number: 7n,
  gasUsed: 1n,
  gasLimit: 2n,
  timestamp: 3n,
  difficulty: 0n,
  totalDifficulty: null,
  size: null,
  baseFeePerGas: 9n,
};
const tx = (n: number): EthereumTransactionInput => ({ hash: `0x${n.toString(16).padStart(64, "0")}`, index: BigInt(n), from: `0x${"44".repeat(20)}`, to: null, value: 0n, gasLimit: 1n, gasPrice: 1n, input: "0xabcdef", nonce: 0n });
const ptr = { number: 7, hash: `0x${"11".repeat(32)}`, parentHash: `0x${"22".repeat(32)}`, timestamp: 3 };

function event(transaction: EthereumTransactionInput, logIndex: bigint, parameters: { name: string; value: EthereumValue }[], extra: Record<string, unknown> = {}): Trigger {
  return { kind: "event", dataSource: 2, handler: "handleThing", event: { address: `0x${"ab".repeat(20)}`, logIndex, transactionLogIndex: logIndex, logType: null, block, transaction, parameters, ...extra } };
}

/** Through the worker boundary as the client posts it: cloned, the buffer transferred. */
function across(blocks: BlockJob[]): BlockJob[] {
  const packed = packRun(blocks);
  const received = structuredClone(packed, { transfer: [packed.bytes.buffer] });
  expect(packed.bytes.byteLength).toBe(0);
  return unpackRun(received).map((b) => ({ ptr: b.ptr, triggers: [...b.triggers] }));
}

describe("packRun / unpackRun", () => {
  it("gives the worker the same triggers, every parameter kind exactly", () => {
    const values: { name: string; value: EthereumValue }[] = [
      { name: "who", value: { kind: "address", value: `0x${"Cd".repeat(20)}` } },
      { name: "raw", value: { kind: "bytes", value: new Uint8Array([0, 1, 255]) } },
      { name: "tag", value: { kind: "fixedBytes", value: "0xdeadbeef" } },
      { name: "fn", value: { kind: "function", value: `0x${"01".repeat(24)}` } },
      { name: "max", value: { kind: "uint", value: 2n ** 256n - 1n } },
      { name: "zero", value: { kind: "uint", value: 0n } },
      { name: "min", value: { kind: "int", value: -(2n ** 255n) } },
      { name: "small", value: { kind: "int", value: -5n } },
      { name: "flag", value: { kind: "bool", value: false } },
      { name: "note", value: { kind: "string", value: "héllo \u{1F600} \ud800 end" } },
      { name: "long", value: { kind: "string", value: "x".repeat(20_000) } },
      { name: "list", value: { kind: "array", value: [{ kind: "uint", value: 1n }, { kind: "uint", value: 2n }] } },
      { name: "pair", value: { kind: "fixedArray", value: [{ kind: "bool", value: true }, { kind: "bool", value: false }] } },
      { name: "nested", value: { kind: "tuple", value: [{ kind: "string", value: "" }, { kind: "array", value: [] }, { kind: "tuple", value: [{ kind: "address", value: `0x${"00".repeat(20)}` }] }] } },
    ];
    const shared = tx(1);
    const jobs: BlockJob[] = [
      { ptr, triggers: [event(shared, 0n, values), event(shared, 1n, [], { logType: "mined", receipt: null }), event(tx(2), 2n ** 40n, [])] },
      { ptr: { ...ptr, number: 8 }, triggers: [] },
    ];
    const out = across(jobs);
    expect(out.map((b) => b.ptr)).toEqual(jobs.map((b) => b.ptr));
    expect(hexByteStrings(out)).toEqual(hexByteStrings(jobs));
    const [first, second, third] = out[0]!.triggers as Extract<Trigger, { kind: "event" }>[];
    // The host writes a block or transaction once per object: events that shared one still do.
    expect(first!.event.block).toBe(third!.event.block);
    expect(first!.event.transaction).toBe(second!.event.transaction);
    expect(first!.event.transaction).not.toBe(third!.event.transaction);
    expect("receipt" in first!.event).toBe(false);
    expect(second!.event.receipt).toBeNull();
  });

  it("keeps as objects what it cannot pack exactly: other trigger kinds, receipts, malformed hex, odd values", () => {
    const receipt = { transactionHash: "0x01", transactionIndex: 0n, blockHash: "0x02", blockNumber: 7n, cumulativeGasUsed: 1n, gasUsed: 1n, contractAddress: "0x", logs: [], status: 1n, root: "0x", logsBloom: "0x" };
    const odd: Trigger[] = [
      { kind: "block", dataSource: 0, handler: "handleBlock", block },
      { kind: "refused", dataSource: 0, handler: "h", message: "two handlers", logIndex: 3, transactionIndex: 0, transactionHash: "0x01" },
      event(tx(1), 0n, [], { receipt }),
      event(tx(1), 1n, [{ name: "bad", value: { kind: "address", value: "0xzz" } }]),
      event(tx(1), 2n, [{ name: "oddLength", value: { kind: "bytes", value: "0x123" } }]),
      // U+0130 and U+0131 end in the bytes of "0" and "1": not hex all the same.
      event(tx(1), 2n, [{ name: "wide", value: { kind: "bytes", value: "0x\u0130\u0131" } }]),
      event(tx(1), 3n, [{ name: "n", value: { kind: "uint", value: 5 as unknown as bigint } }]),
      event(tx(1), 4n, [], { address: "not hex" }),
      event(tx(1), 5n, [], { logIndex: 5 }),
    ];
    const out = across([{ ptr, triggers: [...odd, event(tx(3), 9n, [{ name: "ok", value: { kind: "bool", value: true } }])] }]);
    const triggers = out[0]!.triggers;
    expect(triggers).toHaveLength(odd.length + 1);
    odd.forEach((t, i) => expect(triggers[i]).toEqual(t));
    expect(hexByteStrings(triggers[odd.length])).toEqual(hexByteStrings(event(tx(3), 9n, [{ name: "ok", value: { kind: "bool", value: true } }])));
  });

  it("reads a block's triggers again from the start when iterated again", () => {
    const [packed] = unpackRun(packRun([{ ptr, triggers: [event(tx(1), 0n, []), event(tx(1), 1n, [])] }]));
    expect([...packed!.triggers]).toHaveLength(2);
    expect(hexByteStrings([...packed!.triggers])).toEqual(hexByteStrings([event(tx(1), 0n, []), event(tx(1), 1n, [])]));
  });

  it("gives the worker the same event for a trigger the range loader packed as for the event's objects", () => {
    const packer = new EventValuePacker();
    const names = ["owner", "spender", "value"];
    const params = (n: number): { name: string; value: EthereumValue }[] => [
      { name: "owner", value: { kind: "address", value: `0x${"0a".repeat(19)}${n.toString(16).padStart(2, "0")}` } },
      { name: "spender", value: { kind: "address", value: `0x${"Bb".repeat(20)}` } },
      { name: "value", value: { kind: "uint", value: 10n ** 30n + BigInt(n) } },
    ];
    const loaded = (n: number, transaction: EthereumTransactionInput): LoadedEventTrigger => {
      const body = packer.pack(`0x${"ab".repeat(20)}`, params(n))!;
      return { kind: "loadedEvent", dataSource: 2, handler: "handleThing", block, transaction, logIndex: n, names, packed: packer, at: body.at, end: body.end };
    };
    // Packed before the buffer grows past its first size: each event still finds its own bytes after.
    const triggers = Array.from({ length: 200 }, (_, n) => loaded(n, tx(n % 3)));
    packer.finish();
    expect(packer.bytes.byteLength).toBe(packer.at);
    const expected = Array.from({ length: 200 }, (_, n) => event(tx(n % 3), BigInt(n), params(n)));
    const out = across([{ ptr, triggers: [triggers[0]!, event(tx(0), 1000n, params(7)), ...triggers.slice(1)] }]);
    expect(hexByteStrings(out[0]!.triggers)).toEqual(hexByteStrings([expected[0]!, event(tx(0), 1000n, params(7)), ...expected.slice(1)]));
    // As an object, for the triggers a created data source asks for: its bytes are its own, not the range's.
    const alone = unpackLoadedEvent(triggers[5]!) as Extract<Trigger, { kind: "event" }>;
    expect(hexByteStrings(alone)).toEqual(hexByteStrings(expected[5]));
    expect((alone.event.address as Uint8Array).buffer.byteLength).toBe(triggers[5]!.end - triggers[5]!.at);
  });

  it("packs no part of an event body it cannot pack exactly", () => {
    const packer = new EventValuePacker();
    expect(packer.pack("0xzz", [])).toBeNull();
    expect(packer.pack(`0x${"ab".repeat(20)}`, [{ name: "n", value: { kind: "uint", value: 5 as unknown as bigint } }])).toBeNull();
    expect(packer.at).toBe(0);
  });
});
