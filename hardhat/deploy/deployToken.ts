import { ContractFactory, Interface, type Signer } from "ethers";
import { readArtifact } from "./artifacts.js";
import { connectChain } from "./signers.js";

export interface DeployApprovalTokenParameters {
  rpcUrl: string;
  /** Sender for real networks; the node's first unlocked account otherwise. */
  privateKey?: string;
  name?: string;
  symbol?: string;
  /** Initial supply minted to the deployer, in raw units. */
  supply?: bigint;
}

export interface DeployedApprovalToken {
  /** The EIP-897 DelegateProxy: the address users and the subgraph talk to. */
  proxy: string;
  /** The ERC-20 implementation behind the proxy (its ABI is the subgraph's ABI). */
  implementation: string;
  /** Block in which the proxy was created: the subgraph's startBlock. */
  startBlock: number;
  deployer: string;
  chainId: bigint;
}

/** Deploys the ERC-20 implementation and an EIP-897 proxy in front of it, initialised through the proxy. */
export async function deployApprovalToken(params: DeployApprovalTokenParameters): Promise<DeployedApprovalToken> {
  const { provider, signers } = await connectChain(params.rpcUrl, params.privateKey);
  const deployer = signers[0] as Signer;
  const [tokenArtifact, proxyArtifact] = await Promise.all([readArtifact("ApprovalToken"), readArtifact("DelegateProxy")]);

  const implementation = await new ContractFactory(tokenArtifact.abi, tokenArtifact.bytecode, deployer).deploy();
  await implementation.waitForDeployment();
  const implementationAddress = await implementation.getAddress();

  const deployerAddress = await deployer.getAddress();
  const initData = new Interface(tokenArtifact.abi).encodeFunctionData("initialize", [
    params.name ?? "Approval Token",
    params.symbol ?? "APT",
    deployerAddress,
    params.supply ?? 1_000_000n * 10n ** 18n,
  ]);
  const proxy = await new ContractFactory(proxyArtifact.abi, proxyArtifact.bytecode, deployer).deploy(implementationAddress, initData);
  const receipt = await proxy.deploymentTransaction()?.wait();
  if (!receipt) throw new Error("The proxy deployment transaction has no receipt");

  const network = await provider.getNetwork();
  provider.destroy();
  return {
    proxy: await proxy.getAddress(),
    implementation: implementationAddress,
    startBlock: receipt.blockNumber,
    deployer: deployerAddress,
    chainId: network.chainId,
  };
}
