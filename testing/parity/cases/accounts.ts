// Relations and mutable entities: accounts and spenders updated by every approval, approvals that
// reference both, derived lists, an interface over accounts and spenders; history at past blocks.
import { join } from "node:path";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function accountsCase(): ParityCase {
  return {
    name: "accounts",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "accounts"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      const token = deployed.proxy;
      const first = await sendApprovals({ rpcUrl: chainUrl, token, count: 40, batchSize: 4, seed: 1 });
      // The same seed again: the same spenders receive more approvals (entity updates).
      const second = await sendApprovals({ rpcUrl: chainUrl, token, count: 40, batchSize: 4, seed: 1 });
      await sendApprovals({ rpcUrl: chainUrl, token, count: 24, batchSize: 3, seed: 2 });
      return { address: token, startBlock: deployed.startBlock, pastBlocks: [first.lastBlock, second.firstBlock + 2] };
    },
  };
}
