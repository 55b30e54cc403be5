import { describe, expect, it } from "vitest";
import { Interface } from "ethers";
import type { EthereumTransactionInput } from "../../wasm-host/index.js";
import { testBlock, testBlockPtr } from "./_test/blockFixture.js";
import { readLogsAnswer } from "../chain/logTable.js";
import { createLogDecoder, toEthereumValue } from "./decode.js";
import type { BlockJob } from "./hostProtocol.js";
import { packRun, unpackRun } from "./runCodec.js";
import { plainTrigger, WordEventTrigger, WordParams } from "./wordEvents.js";

const iface = new Interface(["event Words(address indexed who, uint256 indexed big, int8 small, int256 wide, bool flag, bytes4 tag, bytes32 hash, uint64 amount, address other)"]);
const event = iface.getEvent("Words")!;
const abi = iface.fragments.map((f) => JSON.parse(f.format("json")) as unknown);
const spec = { event: "Words(indexed address,indexed uint256,int8,int256,bool,bytes4,bytes32,uint64,address)", handler: "handleWords", topic0: event.topicHash, receipt: false };

const block = testBlock;
const transaction: EthereumTransactionInput = { hash: `0x${"44".repeat(32)}`, index: 0n, from: `0x${"55".repeat(20)}`, to: null, value: 0n, gasLimit: 1n, gasPrice: 1n, input: "0x", nonce: 0n };
const ptr = testBlockPtr;

// Values at each form's edges: zero, one 64-bit word, just past it, the largest, negative and positive ints.
const rows: unknown[][] = [
  ["0x00000000000000000000000000000000000000ab", 0n, 0, 0n, false, "0x00000000", `0x${"00".repeat(32)}`, 0n, `0x${"cd".repeat(20)}`],
  [`0x${"ff".repeat(20)}`, 2n ** 64n - 1n, -128, -(2n ** 255n), true, "0xdeadbeef", `0x${"0f".repeat(32)}`, 2n ** 64n - 1n, `0x${"01".repeat(20)}`],
  [`0x${"12".repeat(20)}`, 2n ** 64n, 127, 2n ** 255n - 1n, true, "0xffffffff", `0x${"a0".repeat(32)}`, 1n, `0x${"fe".repeat(20)}`],
  [`0x${"9a".repeat(20)}`, 2n ** 256n - 1n, -1, -1n, false, "0x01020304", `0x${"ff".repeat(32)}`, 2n ** 53n + 1n, `0x${"00".repeat(20)}`],
  [`0x${"0b".repeat(20)}`, 2n ** 128n + 5n, 5, 2n ** 200n, true, "0x0000ff00", `0x${"7e".repeat(32)}`, 12345n, `0x${"77".repeat(20)}`],
];

function answer(): string {
  const result = rows.map((values, i) => {
    const { data, topics } = iface.encodeEventLog(event, values);
    return { address: `0x${"be".repeat(20)}`, topics, data, blockNumber: "0x7", blockHash: testBlock.hash, transactionHash: transaction.hash, transactionIndex: "0x0", logIndex: `0x${(i * 70_000).toString(16)}`, removed: false };
  });
  return JSON.stringify({ jsonrpc: "2.0", id: 1, result });
}

describe("events packed from the answer's words", () => {
  const decoder = createLogDecoder(abi, [spec]);
  const triggers = readLogsAnswer(answer())!.map((log) => {
    const [m] = decoder.match(log);
    expect(m?.parameters).toBeInstanceOf(WordParams);
    return new WordEventTrigger(3, "handleWords", m!.parameters as WordParams, block, transaction);
  });

  it("pack into the same bytes as the events decoded from text", () => {
    const fromWords = packRun([{ ptr, triggers }]);
    const fromText = packRun([{ ptr, triggers: triggers.map(plainTrigger) }]);
    expect(fromText.other).toEqual([]);
    expect(fromWords.strings).toEqual(fromText.strings);
    expect(Buffer.from(fromWords.bytes).equals(Buffer.from(fromText.bytes))).toBe(true);
  });

  it("reach the handlers' thread with ethers' values", () => {
    const jobs: BlockJob[] = unpackRun(packRun([{ ptr, triggers }])).map((b) => ({ ptr: b.ptr, triggers: [...b.triggers] }));
    const received = jobs[0]!.triggers;
    expect(received).toHaveLength(rows.length);
    received.forEach((t, i) => {
      if (t.kind !== "event") throw new Error(`trigger ${i} is a ${t.kind}`);
      expect(t.event.logIndex).toBe(BigInt(i * 70_000));
      expect(`0x${Buffer.from(t.event.address as Uint8Array).toString("hex")}`).toBe(`0x${"be".repeat(20)}`);
      const hex = (v: unknown) => (v instanceof Uint8Array ? `0x${Buffer.from(v).toString("hex")}` : v);
      const got = t.event.parameters.map((p) => ({ name: p.name, kind: p.value.kind, value: hex(p.value.value) }));
      const decoded = iface.decodeEventLog(event, iface.encodeEventLog(event, rows[i]!).data, iface.encodeEventLog(event, rows[i]!).topics);
      const expected = event.inputs.map((input, k) => {
        const v = toEthereumValue(input, decoded[k]);
        return { name: input.name, kind: v.kind, value: v.value };
      });
      expect(got).toEqual(expected);
    });
  });

  it("build the decoded event when something asks for it", () => {
    const e = triggers[1]!.event;
    expect(e.logIndex).toBe(70_000n);
    expect(e.parameters[2]).toEqual({ name: "small", value: { kind: "int", value: -128n } });
    expect(triggers[1]!.event).toBe(e);
  });
});
