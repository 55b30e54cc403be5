// Subgraph composition (`kind: subgraph` data sources, specVersion 1.3.0): two source subgraphs on the
// project's ApprovalToken (immutable Grants with a nullable note, immutable Ticks with string ids; a
// mutable Holder beside them), and a composed subgraph whose handlers run on their entities: one Owner
// per owner updated from both sources (several times a block: approveMany), a Mirror of each Grant, and
// a Trace of the order the handlers ran in with the fields each saw. The composed subgraph is deployed
// while its sources still index; then a reorg orphans blocks the sources and the composed subgraph
// indexed, and a longer branch follows.
import { join } from "node:path";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";

const fixtures = join(projectRoot, "testing", "parity", "cases", "_test");

export function compositionCase(): ParityCase {
  let token = "";
  let snapshot = "";
  return {
    name: "composition",
    projectDir: join(fixtures, "composition"),
    composeOnto: { sourceProjectDirs: [join(fixtures, "composition-source-a"), join(fixtures, "composition-source-b")] },
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      // Single approvals (one a block), then approveMany batches (several entities of each source a block).
      const single = await sendApprovals({ rpcUrl: chainUrl, token, count: 8, batchSize: 1, seed: 31 });
      const batched = await sendApprovals({ rpcUrl: chainUrl, token, count: 30, batchSize: 6, seed: 33 });
      snapshot = await createJsonRpcClient({ url: chainUrl }).request<string>("evm_snapshot");
      // Blocks the reorg in `afterwards` orphans.
      await sendApprovals({ rpcUrl: chainUrl, token, count: 24, batchSize: 4, seed: 35 });
      return { address: token, startBlock: deployed.startBlock, pastBlocks: [single.firstBlock, single.lastBlock, batched.firstBlock + 1, batched.lastBlock] };
    },
    async afterwards({ chainUrl }) {
      await createJsonRpcClient({ url: chainUrl }).request("evm_revert", [snapshot]);
      // A longer branch than the orphaned one (6 blocks): both engines see a new head past the old one.
      await sendApprovals({ rpcUrl: chainUrl, token, count: 32, batchSize: 4, seed: 37 });
    },
  };
}
