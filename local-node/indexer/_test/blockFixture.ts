// One block as the host receives it, and its pointer, for the tests of what travels to the handlers' thread.
import type { EthereumBlockInput } from "../../../wasm-host/index.js";
import type { JobBlockPtr } from "../hostProtocol.js";

const hash = `0x${"11".repeat(32)}`;
const parentHash = `0x${"22".repeat(32)}`;

export const testBlock: EthereumBlockInput = {
  hash,
  parentHash,
  unclesHash: "0x",
  author: `0x${"33".repeat(20)}`,
  stateRoot: "0x",
  transactionsRoot: "0x",
  receiptsRoot: "0x",
  number: 7n,
  gasUsed: 1n,
  gasLimit: 2n,
  timestamp: 3n,
  difficulty: 0n,
  totalDifficulty: null,
  size: null,
  baseFeePerGas: 9n,
};

export const testBlockPtr: JobBlockPtr = { number: 7, hash, parentHash, timestamp: 3 };
