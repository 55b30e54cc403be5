// Real public subgraphs, unchanged but for their network config, indexed on a fresh Hardhat chain and
// checked against the chain itself, on the local node, on graph-node, or on both with the parity
// comparisons. Their source comes from a checkout the user names; nothing of it enters the project.
import type { RealSubgraph } from "./types.js";
import { nounsBuilder } from "./nouns-builder/index.js";
import { sushiBlocks } from "./sushi-blocks/index.js";
import { uniswapV2 } from "./uniswap-v2/index.js";

export { runRealSubgraph, type EngineChoice, type EngineReport, type RealSubgraphReport, type RunRealSubgraphOptions } from "./runRealSubgraph.js";
export { formatRealSubgraphReport, realSubgraphPassed } from "./report.js";
export { benchPassed, benchRealSubgraph, formatBenchReport, type BenchEngine, type RealSubgraphBench } from "./benchRealSubgraph.js";
export { parseScale, DEFAULT_SCALE } from "./scale.js";
export type { RealSubgraph, RealScenario, CheckContext, ScenarioScale } from "./types.js";
export type { Check } from "./checks.js";

export function realSubgraphs(): RealSubgraph[] {
  return [uniswapV2(), sushiBlocks(), nounsBuilder()];
}
