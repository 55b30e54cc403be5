// The adapter against Hardhat 3's real node (EDR): the eth_call graph-node v0.45 sends (call data as both
// `input` and `data`, 50,000,000 gas) is refused by the chain directly and answered through the adapter.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Interface } from "ethers";
import { startHardhatNode, type HardhatNode } from "../../../../hardhat/chain/index.js";
import { deployApprovalToken, readArtifact } from "../../../../hardhat/deploy/index.js";
import type { RunningServer } from "../lib/http/index.js";
import { adaptCallRequest, startRpcAdapter, TRANSACTION_GAS_CAP } from "./rpcAdapter.js";

async function rpc(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
}

describe("adaptCallRequest", () => {
  it("keeps input, drops the duplicate data, and lowers gas to the EIP-7825 cap", () => {
    const request = { method: "eth_call", params: [{ to: "0x01", input: "0xabcd", data: "0xabcd", gas: "0x2faf080" }, "latest"] };
    expect(adaptCallRequest(request)).toBe(true);
    expect(request.params[0]).toEqual({ to: "0x01", input: "0xabcd", gas: `0x${TRANSACTION_GAS_CAP.toString(16)}` });
  });

  it("leaves other requests, and calls already within the rules, as they are", () => {
    expect(adaptCallRequest({ method: "eth_getBlockByNumber", params: ["latest", false] })).toBe(false);
    expect(adaptCallRequest({ method: "eth_call", params: [{ to: "0x01", data: "0xabcd", gas: "0x5208" }, "latest"] })).toBe(false);
    expect(adaptCallRequest({ method: "eth_call", params: "nonsense" })).toBe(false);
  });
});

describe("the adapter in front of Hardhat 3", () => {
  let chain: HardhatNode;
  let adapter: RunningServer;
  let call: unknown;

  beforeAll(async () => {
    chain = await startHardhatNode();
    const token = await deployApprovalToken({ rpcUrl: chain.url });
    adapter = await startRpcAdapter({ target: chain.url });
    const data = new Interface((await readArtifact("ApprovalToken")).abi).encodeFunctionData("totalSupply");
    // As graph-node v0.45 sends it.
    call = { jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: token.proxy, input: data, data, gas: "0x2faf080" }, "latest"] };
  });
  afterAll(async () => {
    await adapter?.close();
    await chain?.stop();
  });

  it("is needed: the chain refuses graph-node's call", async () => {
    const direct = (await rpc(chain.url, call)) as { error?: { message: string } };
    expect(direct.error?.message).toBeDefined();
  });

  it("makes the call answer, single and in a batch, and passes everything else through", async () => {
    const single = (await rpc(adapter.url, call)) as { result?: string };
    expect(single.result).toMatch(/^0x[0-9a-f]{64}$/);
    const batch = (await rpc(adapter.url, [call, { jsonrpc: "2.0", id: 2, method: "eth_blockNumber", params: [] }])) as { id: number; result?: string }[];
    expect(batch.map((r) => r.id).sort()).toEqual([1, 2]);
    expect(batch.every((r) => typeof r.result === "string")).toBe(true);
  });

  it("answers a clear JSON-RPC error when the chain is gone", async () => {
    const dead = await startRpcAdapter({ target: "http://127.0.0.1:1" });
    try {
      const answer = (await rpc(dead.url, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })) as { error?: { message: string } };
      expect(answer.error?.message).toMatch(/^the chain at http:\/\/127\.0\.0\.1:1 did not answer/);
    } finally {
      await dead.close();
    }
  });
});
