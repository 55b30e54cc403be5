// sushiswap/subgraphs' `blocks` subgraph (SushiSwap's public blocks subgraph), unchanged but for its
// network config: one immutable Block entity per block, written by a block handler with no filter, on
// a data source over a Uniswap v2 factory from npm.
import type { RealSubgraph } from "../types.js";
import { checkBlocks } from "./checks.js";
import { BLOCKS_DIR, writeBlocksNetworkConfig } from "./networkConfig.js";
import { runBlocksScenario } from "./scenario.js";

const NETWORK = "localhost";

export function sushiBlocks(): RealSubgraph {
  return {
    name: "sushi-blocks",
    upstream: { repository: "sushiswap/subgraphs", commit: "12eacc08ea9604736e8e6acd0303c7fe92ea6502" },
    expectedFiles: ["config", `${BLOCKS_DIR}/template.yaml`, `${BLOCKS_DIR}/src/mappings/blocks.ts`],
    subgraphDir: BLOCKS_DIR,
    network: NETWORK,
    buildFiles: ["subgraph.yaml", "schema.graphql", "src", "abis"],
    async scenario({ chainUrl, log }) {
      const deployment = await runBlocksScenario(chainUrl, log);
      return {
        dataSource: "UniswapV2Factory",
        address: deployment.factory,
        startBlock: deployment.startBlock,
        pastBlocks: deployment.pastBlocks,
        configure: (checkoutDir) => writeBlocksNetworkConfig(checkoutDir, NETWORK, deployment),
        check: (context) => checkBlocks(context, deployment.startBlock, deployment.pastBlocks),
      };
    },
  };
}
