// Chain side of the tests: a real Hardhat node with the token behind its proxy, and the approvals
// as the chain itself reports them (eth_getLogs through the proxy, decoded with the ABI).
import { Interface, id as keccakId } from "ethers";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/hardhatNode.js";
import { readArtifact } from "../../../../../hardhat/deploy/artifacts.js";
import { deployApprovalToken, type DeployedApprovalToken } from "../../../../../hardhat/deploy/deployToken.js";

export const APPROVAL_TOPIC = keccakId("Approval(address,address,uint256)");

export interface ChainFixture {
  chain: HardhatNode;
  token: DeployedApprovalToken;
  stop(): Promise<void>;
}

export async function startChainWithToken(): Promise<ChainFixture> {
  const chain = await startHardhatNode();
  try {
    const token = await deployApprovalToken({ rpcUrl: chain.url });
    return { chain, token, stop: () => chain.stop() };
  } catch (err) {
    await chain.stop();
    throw err;
  }
}

export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export async function blockNumber(url: string): Promise<number> {
  return Number(await rpc<string>(url, "eth_blockNumber"));
}

export interface ExpectedApproval {
  id: string;
  owner: string;
  spender: string;
  value: string;
}

/** The approvals as the chain has them (eth_getLogs through the proxy), keyed as the mapping keys them. */
export async function chainApprovals(rpcUrl: string, token: string, fromBlock: number): Promise<ExpectedApproval[]> {
  const { abi } = await readArtifact("ApprovalToken");
  const iface = new Interface(abi);
  const logs = await rpc<{ topics: string[]; data: string; transactionHash: string; logIndex: string }[]>(rpcUrl, "eth_getLogs", [
    { address: token, topics: [APPROVAL_TOPIC], fromBlock: `0x${fromBlock.toString(16)}`, toBlock: "latest" },
  ]);
  return logs.map((l) => {
    const parsed = iface.parseLog({ topics: l.topics, data: l.data })!;
    return {
      id: `${l.transactionHash.toLowerCase()}-${Number(l.logIndex)}`,
      owner: (parsed.args[0] as string).toLowerCase(),
      spender: (parsed.args[1] as string).toLowerCase(),
      value: (parsed.args[2] as bigint).toString(),
    };
  });
}
