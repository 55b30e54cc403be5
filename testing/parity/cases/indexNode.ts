// graph-node's whole index-node API on both engines: the status API's schema by introspection, type by
// type, then the answers of its fields for a real deployment (mutable entities, updates and removals,
// declared features): subgraphFeatures, entityChangesInBlock, blockData and blockHashFromNumber at past
// blocks and the head, cachedEthereumCalls, apiVersions, version, the statuses by subgraph name and for
// the pending version, a proof asked with a `String!` variable in the `Bytes!` position, and the answers
// to what neither engine has.
import { join } from "node:path";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { indexNodeFieldSubjects, indexNodeSchemaSubjects } from "subgraph-workbench/parity";
import type { ParityCase } from "subgraph-workbench/parity";

export function indexNodeCase(): ParityCase {
  let blocks: number[] = [];
  return {
    name: "index-node",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "index-node"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      const token = deployed.proxy;
      const first = await sendApprovals({ rpcUrl: chainUrl, token, count: 8, batchSize: 2, seed: 1 });
      // The same seed again: updates of the same entities, and the mapping's removals.
      const second = await sendApprovals({ rpcUrl: chainUrl, token, count: 8, batchSize: 2, seed: 1 });
      blocks = [deployed.startBlock, first.lastBlock, second.firstBlock, second.lastBlock];
      return { address: token, startBlock: deployed.startBlock, pastBlocks: [first.lastBlock] };
    },
    async adminSteps({ local, graphNode, chainUrl }) {
      const head = Number(await createJsonRpcClient({ url: chainUrl }).request<string>("eth_blockNumber"));
      return [
        ...(await indexNodeSchemaSubjects(local, graphNode)),
        ...(await indexNodeFieldSubjects(local, graphNode, chainUrl, "localhost", [...new Set([...blocks, head])])),
      ];
    },
  };
}
