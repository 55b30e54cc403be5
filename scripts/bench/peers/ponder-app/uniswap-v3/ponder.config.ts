// The Uniswap v3 pool, indexed with v3-core's pool ABI from its creation block: the bench passes the chain
// and the pool through the environment, and copies v3-core's pool artifact in beside this file.
import { readFileSync } from "node:fs";
import { createConfig } from "ponder";
import type { Abi } from "viem";

const { abi } = JSON.parse(readFileSync(new URL("./UniswapV3Pool.json", import.meta.url), "utf8")) as { abi: Abi };

export default createConfig({
  chains: {
    localhost: { id: Number(process.env.BENCH_CHAIN_ID), rpc: process.env.BENCH_RPC_URL! },
  },
  contracts: {
    UniswapV3Pool: {
      abi,
      chain: "localhost",
      address: process.env.BENCH_ADDRESS as `0x${string}`,
      startBlock: Number(process.env.BENCH_START_BLOCK),
    },
  },
});
