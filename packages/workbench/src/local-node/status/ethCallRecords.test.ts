// The eth_calls a chain client keeps for cachedEthereumCalls, made against the real token on Hardhat:
// what graph-node's call cache keeps (a successful call at a block, with bytes in its answer, once),
// what it does not, and graph-node's id of a kept call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Interface } from "ethers";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployApprovalToken, readArtifact } from "../../../../../hardhat/deploy/index.js";
import { cachedCallId, createEthCallRecorder, type WatchedClient } from "./ethCallRecords.js";

let chain: HardhatNode;
let token: string;
let deployer: string;
let startBlock: number;
let iface: Interface;

/** The chain's own JSON-RPC answers; an error answer rejects, as the node's clients do. */
function chainClient(url: string): WatchedClient {
  return {
    async request<T>(method: string, params: unknown[]): Promise<T> {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
      const body = (await res.json()) as { result?: T; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result as T;
    },
  };
}

const hex = (n: number) => `0x${n.toString(16)}`;

beforeAll(async () => {
  chain = await startHardhatNode();
  const deployed = await deployApprovalToken({ rpcUrl: chain.url });
  token = deployed.proxy.toLowerCase();
  deployer = deployed.deployer.toLowerCase();
  startBlock = deployed.startBlock;
  iface = new Interface((await readArtifact("ApprovalToken")).abi);
});
afterAll(async () => {
  await chain?.stop();
});

describe("eth_call records", () => {
  it("keeps a successful call at a block number once, with its answer as the chain gave it", async () => {
    const recorder = createEthCallRecorder();
    const client = recorder.watch(chainClient(chain.url));
    const head = Number(await client.request<string>("eth_blockNumber", []));
    const data = iface.encodeFunctionData("balanceOf", [deployer]);
    const answer = await client.request<string>("eth_call", [{ to: token, data }, hex(head)]);
    await client.request("eth_call", [{ to: token, data }, hex(head)]);
    expect(recorder.callsAt(head)).toEqual([{ contractAddress: token, data: data.toLowerCase(), returnValue: answer.toLowerCase() }]);
    expect(BigInt(answer)).toBe(1_000_000n * 10n ** 18n);
    expect(recorder.callsAt(head + 1)).toEqual([]);
  });

  it("keeps no call at `latest`, no reverted call, no empty answer and no other method", async () => {
    const recorder = createEthCallRecorder();
    const client = recorder.watch(chainClient(chain.url));
    const head = Number(await client.request<string>("eth_blockNumber", []));
    await client.request("eth_call", [{ to: token, data: iface.encodeFunctionData("totalSupply") }, "latest"]);
    // initialize() through the proxy again reverts (already initialised): the client rejects.
    const again = iface.encodeFunctionData("initialize", ["x", "y", deployer, 1n]);
    await expect(client.request("eth_call", [{ to: token, data: again }, hex(head)])).rejects.toThrow(/revert/i);
    // Before the proxy existed its address has no code: the chain answers `0x`.
    expect(await client.request("eth_call", [{ to: token, data: iface.encodeFunctionData("totalSupply") }, hex(0)])).toBe("0x");
    await client.request("eth_getBalance", [deployer, hex(head)]);
    expect([recorder.callsAt(head), recorder.callsAt(0)]).toEqual([[], []]);
  });

  it("drops whole blocks, the one seen longest ago first, past the number of calls it keeps", async () => {
    const recorder = createEthCallRecorder(2);
    const client = recorder.watch(chainClient(chain.url));
    for (let i = 0; i < 3; i++) await client.request("evm_mine", []);
    const head = Number(await client.request<string>("eth_blockNumber", []));
    const blocks = [head - 2, head - 1, head];
    expect(blocks[0]).toBeGreaterThanOrEqual(startBlock);
    for (const block of blocks) await client.request("eth_call", [{ to: token, data: iface.encodeFunctionData("totalSupply") }, hex(block)]);
    expect(blocks.map((b) => recorder.callsAt(b).length)).toEqual([0, 1, 1]);
  });

  it("names a call as graph-node's call cache does", () => {
    // A call gnd 0.45 answered in the parity case index-node: allowance(owner, spender) on the token at
    // block 10, the id graph-node's cachedEthereumCalls gave for it.
    const word = (address: string) => address.slice(2).padStart(64, "0");
    const call = {
      contractAddress: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
      data: `0xdd62ed3e${word("0x14dc79964da2c08b23698b3d3cc7ca32193d9955")}${word("0xcbbfe028345e3603d7b3ccb026cac30836e6115c")}`,
      returnValue: `0x${"d889".padStart(64, "0")}`,
    };
    const blockHash = "589f44b341fcf0eefb13cc0c73a740b2fd843690af52dd9d4f9c349850ca1f2b";
    expect(cachedCallId(call, blockHash)).toBe("0xc81014af36b109fb113a90278398860427c8fa7cff58cbd9132a510124072b38");
    expect(cachedCallId(call, `0x${blockHash}`)).toBe(cachedCallId(call, blockHash));
  });
});
