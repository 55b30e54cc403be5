// The project's own subgraph: approvals in many blocks (one and several per transaction, edge values),
// history compared at past blocks, then a reorg (evm_revert to a snapshot, a longer new branch).
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";

export function approvalsCase(): ParityCase {
  let token = "";
  let snapshot = "";
  return {
    name: "approvals",
    projectDir: projectRoot,
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      const single = await sendApprovals({ rpcUrl: chainUrl, token, count: 12 });
      const batched = await sendApprovals({ rpcUrl: chainUrl, token, count: 240, batchSize: 16, seed: 7 });
      snapshot = await createJsonRpcClient({ url: chainUrl }).request<string>("evm_snapshot");
      // Blocks the reorg in `afterwards` orphans.
      await sendApprovals({ rpcUrl: chainUrl, token, count: 30, batchSize: 6, seed: 11 });
      return { address: token, startBlock: deployed.startBlock, pastBlocks: [single.lastBlock, batched.lastBlock] };
    },
    async afterwards({ chainUrl }) {
      await createJsonRpcClient({ url: chainUrl }).request("evm_revert", [snapshot]);
      // A longer branch than the orphaned one, so both engines see a new head past the old one.
      await sendApprovals({ rpcUrl: chainUrl, token, count: 48, batchSize: 6, seed: 13 });
    },
  };
}
