// `@entity(immutable: true, skipDuplicates: true)`: each owner approves in several blocks, several times
// per block, with removals among the saves. graph-node keeps the first block's last save and drops the
// later blocks' saves and every removal; both engines must store and answer the same, including what a
// load right after a dropped save reads.
import { join } from "node:path";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function skipDuplicatesCase(): ParityCase {
  return {
    name: "skip-duplicates",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "skip-duplicates"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      // Three approvals per transaction (one owner, one block), ten owners in turn, each owner four times.
      const sent = await sendApprovals({ rpcUrl: chainUrl, token: deployed.proxy, count: 120, batchSize: 3 });
      return { address: deployed.proxy, startBlock: deployed.startBlock, pastBlocks: [sent.firstBlock + 5, sent.firstBlock + 15] };
    },
  };
}
