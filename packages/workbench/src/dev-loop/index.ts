export { createDevLoop, type DevLoop, type DevLoopOptions, type PreparedChain } from "./devLoop.js";
export { chainChanged, genesisHash, ChainUnreachableError } from "./chainIdentity.js";
export { runDevLoop } from "./runDevLoop.js";
