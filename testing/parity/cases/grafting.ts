// Grafting: the `pruning` fixture indexes a short chain on both engines; then a second subgraph grafts onto
// it at an early block (graph-node's rule: at least its reorg threshold, 10 under gnd dev, below the
// base's head) and indexes on from there. Both engines must copy the same versions (Holder with its
// history, Approval; the base's Tally left behind), take the base's history setting and earliest block,
// and go on the same way, through a one-block reorg above the graft block.
// The chain stays short enough that the inherited `prune: 12` never prunes (graph-node's pruning depends
// on timing while it catches up; the `pruning` case covers it).
import { join } from "node:path";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function graftingCase(): ParityCase {
  return graftCase("grafting", "pruning");
}

/**
 * The same graft onto a base at specVersion 0.0.5, whose proofs are graph-node's legacy kind: the grafted
 * 1.0.0 deployment inherits legacy digests up to the graft block and answers its proofs there in its own
 * (fast) kind around them, then folds them into fast digests as it goes on. The proofs at the inherited
 * blocks (graftBlock - 1, graftBlock) are compared with graph-node's, as at every past block.
 */
export function graftingLegacyBaseCase(): ParityCase {
  return graftCase("grafting-legacy-base", "graft-legacy-base");
}

function graftCase(name: string, baseFixture: string): ParityCase {
  let token = "";
  let snapshot = "";
  return {
    name,
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "graft"),
    graftOnto: { baseProjectDir: join(projectRoot, "testing", "parity", "cases", "_test", baseFixture) },
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      const sent = await sendApprovals({ rpcUrl: chainUrl, token, count: 11, batchSize: 1, seed: 21 });
      snapshot = await createJsonRpcClient({ url: chainUrl }).request<string>("evm_snapshot");
      await sendApprovals({ rpcUrl: chainUrl, token, count: 1, seed: 23 });
      const graftBlock = sent.firstBlock + 1;
      return { address: token, startBlock: deployed.startBlock, graftBlock, pastBlocks: [graftBlock - 1, graftBlock, graftBlock + 1, sent.lastBlock] };
    },
    async afterwards({ chainUrl }) {
      await createJsonRpcClient({ url: chainUrl }).request("evm_revert", [snapshot]);
      await sendApprovals({ rpcUrl: chainUrl, token, count: 2, batchSize: 1, seed: 25 });
    },
  };
}
