import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { InterfaceAbi } from "ethers";
import { projectRoot } from "../projectRoot.js";

export interface ContractArtifact {
  contractName: string;
  abi: InterfaceAbi & unknown[];
  bytecode: string;
}

export type ContractName = "ApprovalToken" | "ApprovalTokenV2" | "DelegateProxy" | (string & {});

export function artifactPath(name: ContractName, sourceFile = `${name}.sol`): string {
  return join(projectRoot, "hardhat", "artifacts", "hardhat", "contracts", sourceFile, `${name}.json`);
}

/** Reads a compiled Hardhat artifact; run `npm run compile` first. */
export async function readArtifact(name: ContractName, sourceFile?: string): Promise<ContractArtifact> {
  const path = artifactPath(name, sourceFile);
  try {
    return JSON.parse(await readFile(path, "utf8")) as ContractArtifact;
  } catch (cause) {
    throw new Error(`No compiled artifact for ${name} at ${path}; run \`npm run compile\` first`, { cause });
  }
}
