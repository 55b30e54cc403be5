// A mapping that fails deterministically on the value 13: both engines must fail at the same block, in
// the same handler, with the same message, and serve the same data and errors.
import { join } from "node:path";
import { Contract, JsonRpcProvider } from "ethers";
import { deployApprovalToken, readArtifact, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function failingHandlerCase(): ParityCase {
  return {
    name: "failing-handler",
    projectDir: join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "failing"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      const before = await sendApprovals({ rpcUrl: chainUrl, token: deployed.proxy, count: 30, batchSize: 5 });
      const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true });
      const signer = await provider.getSigner(2);
      const token = new Contract(deployed.proxy, (await readArtifact("ApprovalToken")).abi, signer);
      const tx = (await token.getFunction("approve")("0x0000000000000000000000000000000000000013", 13n)) as { wait(): Promise<unknown> };
      await tx.wait();
      provider.destroy();
      await sendApprovals({ rpcUrl: chainUrl, token: deployed.proxy, count: 3, seed: 9 });
      return { address: deployed.proxy, startBlock: deployed.startBlock, pastBlocks: [before.firstBlock] };
    },
  };
}
