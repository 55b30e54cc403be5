import { Interface, JsonRpcProvider, id as topicOf } from "ethers";
import { readArtifact } from "../../hardhat/deploy/artifacts.js";
import type { Approval } from "../../clients/subgraph/index.js";

/**
 * The approvals a correct indexer must produce, read straight from the chain's logs: one per Approval
 * log of the proxy, id `<tx hash>-<log index>`, in graph-node's default order (id ascending, bytewise).
 */
export async function approvalsFromChain(rpcUrl: string, token: string): Promise<Approval[]> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  const abi = new Interface((await readArtifact("ApprovalToken")).abi);
  const logs = await provider.getLogs({ address: token, topics: [topicOf("Approval(address,address,uint256)")], fromBlock: 0, toBlock: "latest" });
  provider.destroy();
  return logs
    .map((log) => {
      const parsed = abi.parseLog(log);
      if (!parsed) throw new Error(`undecodable log ${log.transactionHash}-${log.index}`);
      return {
        id: `${log.transactionHash.toLowerCase()}-${log.index}`,
        owner: (parsed.args.getValue("owner") as string).toLowerCase(),
        spender: (parsed.args.getValue("spender") as string).toLowerCase(),
        value: parsed.args.getValue("value") as bigint,
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
