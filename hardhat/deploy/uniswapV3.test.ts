// The peer bench's Uniswap v3 chain: npm's factory, position manager and pool with our driver, on a real
// Hardhat node; the swaps it sends are the pool's own Swap logs, with mints and burns among them, and the
// price stays in range.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract, id as keccakId } from "ethers";
import { startHardhatNode, type HardhatNode } from "../chain/index.js";
import { ensureCompiled } from "./compile.js";
import { connectChain } from "./signers.js";
import { deployUniswapV3Pool, sendSwaps, uniswapArtifact, UNISWAP_V3_POOL_ARTIFACT, type DeployedUniswapV3Pool } from "./uniswapV3.js";
import { rpc } from "../../packages/workbench/src/local-node/e2e/harness.js";

let chain: HardhatNode;
let deployed: DeployedUniswapV3Pool;

beforeAll(async () => {
  await ensureCompiled();
  chain = await startHardhatNode();
  deployed = await deployUniswapV3Pool({ rpcUrl: chain.url });
}, 120_000);

afterAll(async () => {
  await chain?.stop();
});

const logsOf = (signature: string) =>
  rpc<unknown[]>(chain.url, "eth_getLogs", [{ address: deployed.pool, topics: [keccakId(signature)], fromBlock: `0x${deployed.startBlock.toString(16)}`, toBlock: "latest" }]);

describe("the Uniswap v3 bench chain", () => {
  it("creates the pool through npm's factory for the two tokens, ordered as the pool orders them", async () => {
    const { provider } = await connectChain(chain.url);
    try {
      const pool = new Contract(deployed.pool, uniswapArtifact(UNISWAP_V3_POOL_ARTIFACT).abi, provider);
      expect(String(await pool.getFunction("token0")()).toLowerCase()).toBe(deployed.token0);
      expect(String(await pool.getFunction("token1")()).toLowerCase()).toBe(deployed.token1);
      expect(BigInt(deployed.token0) < BigInt(deployed.token1)).toBe(true);
      expect(await pool.getFunction("fee")()).toBe(3000n);
    } finally {
      provider.destroy();
    }
  });

  it("sends exactly the swaps asked for, in batches, with a position minted and one burned every 50, the price in range", async () => {
    const sent = await sendSwaps({ rpcUrl: chain.url, driver: deployed.driver, count: 620, batchSize: 300 });
    expect(sent).toMatchObject({ swaps: 620, transactions: 3 });
    expect(await logsOf("Swap(address,address,int256,int256,uint160,uint128,int24)")).toHaveLength(620);
    // The position manager's full-range mint, then one narrow mint at swaps 0, 50, ..., 600; each but the first moves the last one.
    expect(await logsOf("Mint(address,address,int24,int24,uint128,uint256,uint256)")).toHaveLength(1 + 13);
    expect(await logsOf("Burn(address,int24,int24,uint128,uint256,uint256)")).toHaveLength(12);
    const { provider } = await connectChain(chain.url);
    try {
      const slot0 = (await new Contract(deployed.pool, uniswapArtifact(UNISWAP_V3_POOL_ARTIFACT).abi, provider).getFunction("slot0")()) as { tick: bigint };
      // Narrow positions span at least ±60 ticks around 0: the alternating swaps keep the price inside.
      expect(Math.abs(Number(slot0.tick))).toBeLessThan(60);
    } finally {
      provider.destroy();
    }
  }, 120_000);
});
