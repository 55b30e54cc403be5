// The file data source test contract (hardhat/contracts/test/ContentRegistry.sol) on a chain: deploy it,
// publish posts that name IPFS files, and read the chain's own posts back for the tests to compare with.
import { Contract, ContractFactory, type Signer } from "ethers";
import { readArtifact } from "./artifacts.js";
import { connectChain } from "./signers.js";

const SOURCE = "test/ContentRegistry.sol";

export interface PublishedPost {
  id: number;
  author: string;
  cid: string;
  withContext: boolean;
  block: number;
}

export async function deployContentRegistry(params: { rpcUrl: string }): Promise<{ registry: string; startBlock: number }> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  try {
    const artifact = await readArtifact("ContentRegistry", SOURCE);
    const registry = await new ContractFactory(artifact.abi, artifact.bytecode, signers[0] as Signer).deploy();
    const receipt = await registry.deploymentTransaction()?.wait();
    if (!receipt) throw new Error("The registry deployment transaction has no receipt");
    return { registry: (await registry.getAddress()).toLowerCase(), startBlock: receipt.blockNumber };
  } finally {
    provider.destroy();
  }
}

/** Publishes each group of paths in one transaction (one block), from account `from` (default 0). */
export async function publishPosts(params: { rpcUrl: string; registry: string; groups: { cids: string[]; withContext: boolean; from?: number }[] }): Promise<number[]> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  const artifact = await readArtifact("ContentRegistry", SOURCE);
  const blocks: number[] = [];
  try {
    for (const group of params.groups) {
      const registry = new Contract(params.registry, artifact.abi, signers[group.from ?? 0] as Signer);
      const tx = (await (group.cids.length === 1
        ? registry.getFunction("publish")(group.cids[0], group.withContext)
        : registry.getFunction("publishMany")(group.cids, group.withContext))) as { wait(): Promise<{ blockNumber: number } | null> };
      const receipt = await tx.wait();
      if (receipt) blocks.push(receipt.blockNumber);
    }
    return blocks;
  } finally {
    provider.destroy();
  }
}

/** Every post as the chain's logs record it. */
export async function readPosts(params: { rpcUrl: string; registry: string }): Promise<PublishedPost[]> {
  const { provider } = await connectChain(params.rpcUrl);
  try {
    const registry = new Contract(params.registry, (await readArtifact("ContentRegistry", SOURCE)).abi, provider);
    const logs = await registry.queryFilter(registry.filters.Published!(), 0, "latest");
    return logs.map((log) => {
      const args = (log as unknown as { args: [bigint, string, string, boolean] }).args;
      return { id: Number(args[0]), author: args[1].toLowerCase(), cid: args[2], withContext: args[3], block: log.blockNumber };
    });
  } finally {
    provider.destroy();
  }
}
