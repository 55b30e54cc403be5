// Contracts on a chain: compile, deploy the token behind its proxy, send approvals, networks.json.
export { sendApprovals } from "./approvals.js";
export { readArtifact } from "./artifacts.js";
export { ensureCompiled } from "./compile.js";
export { deployApprovalToken } from "./deployToken.js";
export { readNetworks, writeNetworkEntry } from "./networks.js";
export { deployPoolFactory, readPoolState, readVaultPings, runFactoryScenario } from "./poolFactory.js";
export type { DeployedPoolFactory, FactoryActivity } from "./poolFactory.js";
export { deployContentRegistry, publishPosts, readPosts } from "./contentRegistry.js";
export type { PublishedPost } from "./contentRegistry.js";
export { deployOverloadedCalls, emitTagged } from "./overloadedCalls.js";
export { deployUniswapV3Pool, sendSwaps, uniswapArtifact, UNISWAP_V3_POOL_ARTIFACT } from "./uniswapV3.js";
export type { DeployedUniswapV3Pool, SentSwaps } from "./uniswapV3.js";
