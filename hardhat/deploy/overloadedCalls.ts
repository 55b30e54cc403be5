// The ABI edge-case test contract (hardhat/contracts/test/OverloadedCalls.sol) on a chain: deploy it and
// emit its three overloaded `Tagged` events, one transaction (one block) per call.
import { Contract, ContractFactory, type Signer } from "ethers";
import { readArtifact } from "./artifacts.js";
import { connectChain } from "./signers.js";

const SOURCE = "test/OverloadedCalls.sol";

export async function deployOverloadedCalls(params: { rpcUrl: string }): Promise<{ address: string; startBlock: number }> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  try {
    const artifact = await readArtifact("OverloadedCalls", SOURCE);
    const contract = await new ContractFactory(artifact.abi, artifact.bytecode, signers[0] as Signer).deploy();
    const receipt = await contract.deploymentTransaction()?.wait();
    if (!receipt) throw new Error("The OverloadedCalls deployment transaction has no receipt");
    return { address: (await contract.getAddress()).toLowerCase(), startBlock: receipt.blockNumber };
  } finally {
    provider.destroy();
  }
}

/** Calls `emitTagged(tag, amount, label)` once per entry; answers the blocks they landed in. */
export async function emitTagged(params: { rpcUrl: string; address: string; calls: { tag: string; amount: bigint; label: string }[] }): Promise<number[]> {
  const { provider, signers } = await connectChain(params.rpcUrl);
  const artifact = await readArtifact("OverloadedCalls", SOURCE);
  const blocks: number[] = [];
  try {
    const contract = new Contract(params.address, artifact.abi, signers[1] as Signer);
    for (const call of params.calls) {
      const tx = (await contract.getFunction("emitTagged")(call.tag, call.amount, call.label)) as { wait(): Promise<{ blockNumber: number } | null> };
      const receipt = await tx.wait();
      if (receipt) blocks.push(receipt.blockNumber);
    }
    return blocks;
  } finally {
    provider.destroy();
  }
}
