// A timeseries entity type without aggregations (`@entity(timeseries: true)`): both engines must give
// each point graph-node's generated id (block number and a per-block sequence) and the block's
// timestamp, whatever the mapping wrote, and answer the same time-travel and timestamp filters.
import { join } from "node:path";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function timeseriesCase(): ParityCase {
  return {
    name: "timeseries",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "timeseries"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      const token = deployed.proxy;
      const chain = createJsonRpcClient({ url: chainUrl });
      const first = await sendApprovals({ rpcUrl: chainUrl, token, count: 6, batchSize: 3, seed: 31 });
      // An hour later, then a day later: points far apart in time.
      await chain.request("evm_increaseTime", [3_600]);
      const later = await sendApprovals({ rpcUrl: chainUrl, token, count: 4, seed: 33 });
      await chain.request("evm_increaseTime", [86_400]);
      await sendApprovals({ rpcUrl: chainUrl, token, count: 5, batchSize: 5, seed: 35 });
      return { address: token, startBlock: deployed.startBlock, pastBlocks: [first.lastBlock, later.lastBlock] };
    },
  };
}
