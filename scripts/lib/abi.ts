import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readArtifact } from "../../hardhat/deploy/index.js";
import { projectRoot } from "../../hardhat/projectRoot.js";

export const implementationAbiPath = join(projectRoot, "abis", "ApprovalToken.json");

/** The subgraph indexes the proxy but decodes with the implementation's ABI (EIP-897). */
export async function exportImplementationAbi(path = implementationAbiPath): Promise<string> {
  const { abi } = await readArtifact("ApprovalToken");
  await writeFile(path, JSON.stringify(abi, null, 2) + "\n");
  return path;
}
