// `npm run abi`: writes the implementation's ABI from the Hardhat artifact to abis/ (never by hand).
import { exportImplementationAbi } from "./lib/abi.js";
import { fail } from "subgraph-workbench/cli";

try {
  const path = await exportImplementationAbi();
  console.log(`wrote ${path}`);
} catch (error) {
  fail(error);
}
