// Uniswap v2 from its npm artifacts: the core (`@uniswap/v2-core`: Factory, Pair) and the periphery
// (`@uniswap/v2-periphery`: Router02 and WETH9). The router finds pairs by the init code hash of the
// Pair bytecode it was built with, which is the hash of v2-core's published Pair: the two packages work
// together unchanged.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Contract, ContractFactory, Interface, type InterfaceAbi, type Signer } from "ethers";

const require = createRequire(import.meta.url);

export type UniswapArtifactName = "UniswapV2Factory" | "UniswapV2Pair" | "UniswapV2Router02" | "WETH9";

const PACKAGE: Record<UniswapArtifactName, string> = {
  UniswapV2Factory: "@uniswap/v2-core",
  UniswapV2Pair: "@uniswap/v2-core",
  UniswapV2Router02: "@uniswap/v2-periphery",
  WETH9: "@uniswap/v2-periphery",
};

export interface UniswapArtifact {
  abi: InterfaceAbi;
  bytecode: string;
}

export async function readUniswapArtifact(name: UniswapArtifactName): Promise<UniswapArtifact> {
  const path = require.resolve(`${PACKAGE[name]}/build/${name}.json`);
  const artifact = JSON.parse(await readFile(path, "utf8")) as { abi: InterfaceAbi; bytecode: string };
  return { abi: artifact.abi, bytecode: artifact.bytecode.startsWith("0x") ? artifact.bytecode : `0x${artifact.bytecode}` };
}

export async function deployArtifact(name: UniswapArtifactName, signer: Signer, args: unknown[] = []): Promise<{ contract: Contract; address: string; block: number }> {
  const { abi, bytecode } = await readUniswapArtifact(name);
  const deployed = await new ContractFactory(abi, bytecode, signer).deploy(...args);
  const receipt = await deployed.deploymentTransaction()?.wait();
  if (!receipt) throw new Error(`${name}: the deployment has no receipt`);
  const address = await deployed.getAddress();
  return { contract: new Contract(address, abi, signer), address, block: receipt.blockNumber };
}

export async function uniswapInterface(name: UniswapArtifactName): Promise<Interface> {
  return new Interface((await readUniswapArtifact(name)).abi);
}
