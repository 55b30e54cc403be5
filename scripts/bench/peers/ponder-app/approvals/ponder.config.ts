// The token's proxy, indexed with the implementation's ABI from its deployment block: the bench passes
// the chain and the token through the environment, and copies the project's ABI in beside this file.
import { readFileSync } from "node:fs";
import { createConfig } from "ponder";
import type { Abi } from "viem";

const abi = JSON.parse(readFileSync(new URL("./ApprovalToken.json", import.meta.url), "utf8")) as Abi;

export default createConfig({
  chains: {
    localhost: { id: Number(process.env.BENCH_CHAIN_ID), rpc: process.env.BENCH_RPC_URL! },
  },
  contracts: {
    ApprovalToken: {
      abi,
      chain: "localhost",
      address: process.env.BENCH_ADDRESS as `0x${string}`,
      startBlock: Number(process.env.BENCH_START_BLOCK),
    },
  },
});
