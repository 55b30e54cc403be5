// Hardhat's node on loopback for the scripts and tests: start it, or find one that answers.
export { rpcAnswers, startHardhatNode } from "./hardhatNode.js";
export type { HardhatNode } from "./hardhatNode.js";
