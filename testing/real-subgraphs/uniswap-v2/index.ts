// Uniswap/v2-subgraph (the public subgraph of Uniswap v2), unchanged but for its network config, over
// the npm artifacts of Uniswap v2: the Factory data source creates a Pair data source per pair from its
// template (`Pair.create`), so everything but the factory's own entities comes from template handlers.
import type { RealSubgraph } from "../types.js";
import { readUniswapState } from "./chainState.js";
import { checkUniswapEntities } from "./checks.js";
import { writeNetworkConfig } from "./networkConfig.js";
import { runUniswapScenario } from "./scenario.js";

export const UNISWAP_V2_NETWORK = "localhost";

export function uniswapV2(): RealSubgraph {
  return {
    name: "uniswap-v2",
    upstream: { repository: "Uniswap/v2-subgraph", commit: "468ce7beca3888a927f64d1f2481e59b8fded299" },
    expectedFiles: ["v2-subgraph.template.yaml", "src/v2/mappings/factory.ts", "src/v2/schema.graphql"],
    network: UNISWAP_V2_NETWORK,
    // The rendered manifest, the mappings (the schema is src/v2/schema.graphql) and the ABIs.
    buildFiles: ["subgraph.yaml", "src", "abis"],
    async scenario({ chainUrl, log }) {
      const deployment = await runUniswapScenario(chainUrl, log);
      return {
        dataSource: "Factory",
        address: deployment.factory,
        startBlock: deployment.factoryBlock,
        pastBlocks: deployment.pastBlocks,
        configure: (sourceDir) => writeNetworkConfig(sourceDir, UNISWAP_V2_NETWORK, deployment),
        async check(context) {
          const state = await readUniswapState(chainUrl, deployment.factory, deployment.factoryBlock);
          const past = await Promise.all(deployment.pastBlocks.map((block) => readUniswapState(chainUrl, deployment.factory, deployment.factoryBlock, block)));
          await checkUniswapEntities(deployment, context, state, past);
        },
      };
    },
  };
}
