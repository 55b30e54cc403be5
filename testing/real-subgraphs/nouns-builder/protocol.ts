// Nouns Builder from its npm artifacts (`@zoralabs/nouns-protocol` 1.2.0), deployed the way the
// protocol's own deploy script does it: the Manager behind an ERC-1967 proxy, first with no
// implementations (each implementation needs the Manager's address), then upgraded to a Manager that
// knows the five implementations. `Manager.deploy` then creates a DAO's five proxies at once.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Contract, ContractFactory, Interface, ZeroAddress, type InterfaceAbi, type Signer } from "ethers";

const require = createRequire(import.meta.url);

export type NounsArtifactName = "Manager" | "Token" | "MetadataRenderer" | "Auction" | "Treasury" | "Governor" | "ERC1967Proxy" | "WETH";

export async function readNounsArtifact(name: NounsArtifactName): Promise<{ abi: InterfaceAbi; bytecode: string }> {
  const path = require.resolve(`@zoralabs/nouns-protocol/dist/artifacts/${name}.sol/${name}.json`);
  const artifact = JSON.parse(await readFile(path, "utf8")) as { abi: InterfaceAbi; bytecode: { object: string } };
  const code = artifact.bytecode.object;
  return { abi: artifact.abi, bytecode: code.startsWith("0x") ? code : `0x${code}` };
}

export async function nounsContract(name: NounsArtifactName, address: string, signer: Signer): Promise<Contract> {
  return new Contract(address, (await readNounsArtifact(name)).abi, signer);
}

async function deploy(name: NounsArtifactName, signer: Signer, args: unknown[]): Promise<string> {
  const { abi, bytecode } = await readNounsArtifact(name);
  const deployed = await new ContractFactory(abi, bytecode, signer).deploy(...args);
  await deployed.waitForDeployment();
  return deployed.getAddress();
}

export interface NounsProtocol {
  manager: Contract;
  managerBlock: number;
  weth: string;
}

/** The Manager proxy (owned by `owner`) with every implementation registered. */
export async function deployNounsProtocol(owner: Signer): Promise<NounsProtocol> {
  const weth = await deploy("WETH", owner, []);
  const emptyManager = await deploy("Manager", owner, [ZeroAddress, ZeroAddress, ZeroAddress, ZeroAddress, ZeroAddress]);
  const initialize = new Interface((await readNounsArtifact("Manager")).abi).encodeFunctionData("initialize", [await owner.getAddress()]);
  const proxy = await deploy("ERC1967Proxy", owner, [emptyManager, initialize]);
  const implementations = [
    await deploy("Token", owner, [proxy]),
    await deploy("MetadataRenderer", owner, [proxy]),
    await deploy("Auction", owner, [proxy, weth]),
    await deploy("Treasury", owner, [proxy]),
    await deploy("Governor", owner, [proxy]),
  ];
  const manager = await nounsContract("Manager", proxy, owner);
  const upgraded = await (await manager.getFunction("upgradeTo")(await deploy("Manager", owner, implementations))).wait();
  if (!upgraded) throw new Error("Manager.upgradeTo has no receipt");
  return { manager, managerBlock: upgraded.blockNumber, weth };
}
