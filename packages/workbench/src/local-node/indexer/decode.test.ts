import { describe, expect, it } from "vitest";
import { Interface } from "ethers";
import { createLogDecoder } from "./decode.js";
import type { ChainLog } from "../chain/blocks.js";

const abi = [
  "event Mixed(int8 indexed small, bool indexed flag, bytes4 tag, uint256 amount, address who, int256 delta)",
  "event Dynamic(string indexed label, string note, uint256[] list)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
];
const iface = new Interface(abi);

function log(name: string, values: unknown[], sig?: string): ChainLog {
  const ev = sig ? iface.getEvent(sig)! : iface.getEvent(name)!;
  const { data, topics } = iface.encodeEventLog(ev, values);
  return { address: "0x1", topics: topics.map((t) => t.toLowerCase()), data, blockNumber: 1, blockHash: "0x", transactionHash: "0x", transactionIndex: 0, logIndex: 0, removed: false };
}

const spec = (event: string, handler: string, topic0: string) => ({ event, handler, topic0, receipt: false });

describe("createLogDecoder", () => {
  it("decodes one-word static types (the fast path) exactly as the ABI says", () => {
    const ev = iface.getEvent("Mixed")!;
    const d = createLogDecoder(iface.fragments.map((f) => JSON.parse(f.format("json"))), [spec("Mixed(indexed int8,indexed bool,bytes4,uint256,address,int256)", "handleMixed", ev.topicHash)]);
    const who = "0x00000000000000000000000000000000000000ab";
    const [m] = d.match(log("Mixed", [-5, true, "0xdeadbeef", 2n ** 256n - 1n, who, -(2n ** 200n)]));
    expect(m?.handler.handler).toBe("handleMixed");
    expect(m?.parameters).toEqual([
      { name: "small", value: { kind: "int", value: -5n } },
      { name: "flag", value: { kind: "bool", value: true } },
      { name: "tag", value: { kind: "fixedBytes", value: "0xdeadbeef" } },
      { name: "amount", value: { kind: "uint", value: 2n ** 256n - 1n } },
      { name: "who", value: { kind: "address", value: who.toLowerCase() } },
      { name: "delta", value: { kind: "int", value: -(2n ** 200n) } },
    ]);
  });

  it("decodes dynamic types through ethers; an indexed string is its hash", () => {
    const ev = iface.getEvent("Dynamic")!;
    const d = createLogDecoder(iface.fragments.map((f) => JSON.parse(f.format("json"))), [spec("Dynamic(indexed string,string,uint256[])", "h", ev.topicHash)]);
    const l = log("Dynamic", ["key", "hello", [1n, 2n]]);
    const [m] = d.match(l);
    expect(m?.parameters[0]).toEqual({ name: "label", value: { kind: "fixedBytes", value: l.topics[1] } });
    expect(m?.parameters[1]).toEqual({ name: "note", value: { kind: "string", value: "hello" } });
    expect(m?.parameters[2]).toEqual({ name: "list", value: { kind: "array", value: [{ kind: "uint", value: 1n }, { kind: "uint", value: 2n }] } });
  });

  it("tells events with the same topic0 apart by their indexed inputs", () => {
    const erc20 = iface.getEvent("Transfer(address,address,uint256)")!;
    const json = iface.fragments.map((f) => JSON.parse(f.format("json")));
    const d = createLogDecoder(json, [spec("Transfer(indexed address,indexed address,uint256)", "erc20", erc20.topicHash)]);
    const a = "0x0000000000000000000000000000000000000001";
    const b = "0x0000000000000000000000000000000000000002";
    expect(d.match(log("", [a, b, 7n], "Transfer(address,address,uint256)")).map((m) => m.handler.handler)).toEqual(["erc20"]);
    // An ERC-721 Transfer (4 topics) has the same topic0 but is not the handler's event.
    const nft = { ...log("", [a, b, 7n], "Transfer(address,address,uint256)") };
    nft.topics = [...nft.topics, `0x${"0".repeat(63)}7`];
    nft.data = "0x";
    expect(d.match(nft)).toEqual([]);
  });
});
