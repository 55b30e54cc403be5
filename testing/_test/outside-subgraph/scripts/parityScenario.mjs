// The project's parity scenario (`subgraph-workbench parity --scenario scripts/parityScenario.mjs`): deploys
// the token behind its proxy on the chain and sends a few approvals; answers where the subgraph indexes.
import { readFileSync } from "node:fs";
import { Contract, ContractFactory, Interface, JsonRpcProvider } from "ethers";

const artifact = (name) => JSON.parse(readFileSync(new URL(`../contracts/${name}.json`, import.meta.url), "utf8"));

export default async function scenario({ chainUrl }) {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true });
  try {
    const signer = await provider.getSigner(0);
    const token = artifact("ApprovalToken");
    const proxyArtifact = artifact("DelegateProxy");
    const implementation = await new ContractFactory(token.abi, token.bytecode, signer).deploy();
    await implementation.waitForDeployment();
    const init = new Interface(token.abi).encodeFunctionData("initialize", ["Outside", "OUT", await signer.getAddress(), 10n ** 24n]);
    const proxy = await new ContractFactory(proxyArtifact.abi, proxyArtifact.bytecode, signer).deploy(await implementation.getAddress(), init);
    const receipt = await proxy.deploymentTransaction().wait();
    const erc20 = new Contract(await proxy.getAddress(), token.abi, signer);
    for (let i = 1; i <= 4; i++) await (await erc20.approve(`0x${String(i).padStart(40, "0")}`, BigInt(i) * 1000n)).wait();
    return { address: await proxy.getAddress(), startBlock: receipt.blockNumber, dataSource: "ApprovalToken" };
  } finally {
    provider.destroy();
  }
}
