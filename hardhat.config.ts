import { createRequire } from "node:module";
import { defineConfig } from "hardhat/config";

const require = createRequire(import.meta.url);

// Compile with the `solc` npm package so no compiler is downloaded at run time.
export default defineConfig({
  paths: {
    sources: "./hardhat/contracts",
    tests: "./hardhat/test",
    cache: "./hardhat/cache",
    artifacts: "./hardhat/artifacts",
  },
  solidity: {
    version: "0.8.28",
    path: require.resolve("solc/soljson.js"),
    settings: { optimizer: { enabled: true, runs: 200 } },
  },
  networks: {
    localhost: { type: "http", url: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545" },
  },
});
