// Builds (when its artifact is missing) and deploys hardhat/contracts/test/SparseStorage.sol.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { ContractFactory, JsonRpcProvider, type BaseContract, type ContractTransactionResponse } from "ethers";
import { projectRoot as root } from "../../../hardhat/projectRoot.js";

const artifactPath = join(root, "hardhat/artifacts/hardhat/contracts/test/SparseStorage.sol/SparseStorage.json");

export async function buildSparseStorage(): Promise<{ abi: unknown[]; bytecode: string }> {
  if (!existsSync(artifactPath)) {
    await promisify(execFile)(join(root, "node_modules/.bin/hardhat"), ["build", "hardhat/contracts/test/SparseStorage.sol"], { cwd: root });
  }
  return JSON.parse(await readFile(artifactPath, "utf8")) as { abi: unknown[]; bytecode: string };
}

type Tx = Promise<ContractTransactionResponse>;

export type SparseStorageContract = BaseContract & {
  setPosition(id: bigint, amount: bigint, owner: bigint): Tx;
  setBalance(account: string, amount: bigint): Tx;
  store(slot: bigint, value: bigint): Tx;
  fill(from: bigint, count: bigint, zeroEvery: bigint): Tx;
};

export type Deployed = {
  provider: JsonRpcProvider;
  contract: SparseStorageContract;
  address: string;
  deployer: string;
  /** Sends a transaction, waits for it, returns the hash of the block that holds it. */
  send(tx: Tx): Promise<string>;
};

export async function deploySparseStorage(url: string): Promise<Deployed> {
  const { abi, bytecode } = await buildSparseStorage();
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, batchMaxCount: 1 });
  const signer = await provider.getSigner(0);
  const factory = new ContractFactory(abi as never, bytecode, signer);
  const contract = (await factory.deploy()) as unknown as SparseStorageContract;
  await contract.waitForDeployment();
  const send = async (tx: Tx) => {
    const receipt = await (await tx).wait();
    if (!receipt) throw new Error("no receipt");
    return receipt.blockHash;
  };
  return { provider, contract, address: await contract.getAddress(), deployer: await signer.getAddress(), send };
}
