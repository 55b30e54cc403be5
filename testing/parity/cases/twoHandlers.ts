// A manifest with two handlers for one event on one data source: graph-node fails the first block with
// such a log, as a non-deterministic error ("failed to process trigger: ... Multiple handlers defined for
// event ..."), keeps retrying, and serves queries; both engines must say and serve the same.
import { join } from "node:path";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function twoHandlersCase(): ParityCase {
  return {
    name: "two-handlers",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "two-handlers"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      const sent = await sendApprovals({ rpcUrl: chainUrl, token: deployed.proxy, count: 6, batchSize: 2 });
      return { address: deployed.proxy, startBlock: deployed.startBlock, pastBlocks: [sent.firstBlock] };
    },
  };
}
