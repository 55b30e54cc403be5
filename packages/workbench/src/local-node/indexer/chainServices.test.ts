// ethereum.call / getBalance / hasCode for handlers, against the real token on Hardhat.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChainWithToken, type ChainFixture } from "../e2e/chainFixture.js";
import { createRpcClient } from "../chain/rpcClient.js";
import { getBlock, getHeadNumber } from "../chain/blocks.js";
import { createChainServices, fragmentFromSignature } from "./chainServices.js";

let fx: ChainFixture;
beforeAll(async () => {
  fx = await startChainWithToken();
});
afterAll(async () => {
  await fx?.stop();
});

describe("chain services", () => {
  it("parses graph-cli's function signatures", () => {
    const f = fragmentFromSignature("balanceOf", "balanceOf(address):(uint256)");
    expect(f.format("sighash")).toBe("balanceOf(address)");
    expect(f.outputs.map((o) => o.type)).toEqual(["uint256"]);
  });

  it("calls the token through its proxy at a block, and reports reverts as null", async () => {
    const rpc = createRpcClient({ url: fx.chain.url });
    const services = createChainServices(rpc);
    const head = await getBlock(rpc, await getHeadNumber(rpc));
    const block = { number: head!.number, hash: head!.hash };
    const token = fx.token.proxy.toLowerCase();
    const call = (functionName: string, functionSignature: string, functionParams: Parameters<typeof services.ethereumCall>[0]["functionParams"]) =>
      services.ethereumCall({ contractName: "ApprovalToken", contractAddress: token, functionName, functionSignature, functionParams, block });
    expect(await call("balanceOf", "balanceOf(address):(uint256)", [{ kind: "address", value: fx.token.deployer.toLowerCase() }])).toEqual([
      { kind: "uint", value: 1_000_000n * 10n ** 18n },
    ]);
    expect(await call("symbol", "symbol():(string)", [])).toEqual([{ kind: "string", value: "APT" }]);
    // initialize() through the proxy again reverts (already initialised).
    expect(await call("initialize", "initialize(string,string,address,uint256):()", [
      { kind: "string", value: "x" },
      { kind: "string", value: "y" },
      { kind: "address", value: token },
      { kind: "uint", value: 1n },
    ])).toBeNull();
    expect(await services.hasCode(token, block)).toBe(true);
    expect(await services.hasCode(fx.token.deployer, block)).toBe(false);
    expect(await services.getBalance(fx.token.deployer, block)).toBeGreaterThan(0n);
  });
});
