// Uniswap/v2-subgraph (the public subgraph of Uniswap v2), unchanged but for its network config, over
// the npm artifacts of Uniswap v2: the Factory data source creates a Pair data source per pair from its
// template (`Pair.create`), so everything but the factory's own entities comes from template handlers.
// With a scale (`--pairs`, `--trades`) the scenario is scaleScenario.ts's dense stream instead.
import type { RealSubgraph } from "../types.js";
import { readUniswapState, type UniswapChainState } from "./chainState.js";
import { checkUniswapEntities } from "./checks.js";
import { writeNetworkConfig } from "./networkConfig.js";
import { describeGeneration, runUniswapScaleScenario, type ScaleGeneration } from "./scaleScenario.js";
import { runUniswapScenario, type UniswapDeployment } from "./scenario.js";

export const UNISWAP_V2_NETWORK = "localhost";

export function uniswapV2(): RealSubgraph {
  return {
    name: "uniswap-v2",
    upstream: { repository: "Uniswap/v2-subgraph", commit: "468ce7beca3888a927f64d1f2481e59b8fded299" },
    expectedFiles: ["v2-subgraph.template.yaml", "src/v2/mappings/factory.ts", "src/v2/schema.graphql"],
    network: UNISWAP_V2_NETWORK,
    // The rendered manifest, the mappings (the schema is src/v2/schema.graphql) and the ABIs.
    buildFiles: ["subgraph.yaml", "src", "abis"],
    scalable: true,
    async scenario({ chainUrl, log, scale }) {
      const deployment: UniswapDeployment & { generation?: ScaleGeneration } = scale ? await runUniswapScaleScenario(chainUrl, scale, log) : await runUniswapScenario(chainUrl, log);
      // The chain does not change after the scenario: it is read once, whichever engines are checked.
      let states: Promise<[UniswapChainState, UniswapChainState[]]> | undefined;
      const readStates = () =>
        (states ??= Promise.all([
          readUniswapState(chainUrl, deployment.factory, deployment.factoryBlock),
          Promise.all(deployment.pastBlocks.map((block) => readUniswapState(chainUrl, deployment.factory, deployment.factoryBlock, block))),
        ]));
      return {
        dataSource: "Factory",
        address: deployment.factory,
        startBlock: deployment.factoryBlock,
        pastBlocks: deployment.pastBlocks,
        configure: (sourceDir) => writeNetworkConfig(sourceDir, UNISWAP_V2_NETWORK, deployment),
        async check(context) {
          const [state, past] = await readStates();
          await checkUniswapEntities(deployment, context, state, past);
        },
        // PairCreated on the factory, then every Mint, Burn, Swap, Transfer and Sync of the pairs.
        async handledEvents() {
          const [state] = await readStates();
          return state.pairs.length + state.events.length;
        },
        ...(deployment.generation ? { summary: describeGeneration(deployment.generation) } : {}),
      };
    },
  };
}
