// `features: [nonFatalErrors]`: once synced, a batch of approvals in one transaction whose middle one
// fails (after updating its account) must skip only that handler; the deployment goes on, unhealthy,
// with the error listed, and queries need `subgraphError: allow` for data from that block on. The same
// failure during the first sync pauses the deployment (graph-node's fail-fast).
import { join } from "node:path";
import { Contract, JsonRpcProvider } from "ethers";
import { deployApprovalToken, readArtifact, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

const allow = (field: string, selection: string) => `{ r: ${field}(first: 1000, orderBy: id, subgraphError: allow) { ${selection} } }`;

/** An approveMany of 11, 13, 15 from account 2: the handler of 13 fails after updating its account. */
async function approveWithUnluckyValue(chainUrl: string, token: string): Promise<void> {
  const provider = new JsonRpcProvider(chainUrl, undefined, { staticNetwork: true });
  try {
    const signer = await provider.getSigner(2);
    const contract = new Contract(token, (await readArtifact("ApprovalToken")).abi, signer);
    const spenders = ["0x0000000000000000000000000000000000000011", "0x0000000000000000000000000000000000000013", "0x0000000000000000000000000000000000000015"];
    const tx = (await contract.getFunction("approveMany")(spenders, [11n, 13n, 15n])) as { wait(): Promise<unknown> };
    await tx.wait();
  } finally {
    provider.destroy();
  }
}

const queries = [
  { id: "nonFatal.approvals.allow", query: allow("approvalQueries", "id owner spender value") },
  { id: "nonFatal.accounts.allow", query: allow("accounts", "id approvals total") },
  { id: "nonFatal.meta", query: "{ _meta(subgraphError: allow) { hasIndexingErrors block { number } } }" },
  // graph-node spares debugging fields by their response keys (`_meta`, `_logs`), and a root group's
  // error policy is deny when any of its fields lacks `subgraphError: allow`.
  { id: "nonFatal.meta.typename", query: "{ _meta { block { number } } __typename }" },
  { id: "nonFatal.meta.alias", query: "{ m: _meta { block { number } } }" },
  { id: "nonFatal.meta.besideAllow", query: "{ _meta { block { number } } r: approvalQueries(first: 1, orderBy: id, subgraphError: allow) { id } }" },
  { id: "nonFatal.introspection", query: '{ __type(name: "_Meta_") { name } }' },
];

export function nonFatalErrorsCase(): ParityCase {
  let token = "";
  return {
    name: "non-fatal-errors",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "non-fatal"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      await sendApprovals({ rpcUrl: chainUrl, token, count: 30, batchSize: 5 });
      return { address: token, startBlock: deployed.startBlock };
    },
    // After the first comparison both engines have synced: graph-node pauses a deployment whose handler
    // fails before it synced (fail-fast), so the failure comes only now.
    async afterwards({ chainUrl }) {
      await approveWithUnluckyValue(chainUrl, token);
      await sendApprovals({ rpcUrl: chainUrl, token, count: 4, seed: 5 });
    },
    queries,
  };
}

/** The same failure during the first sync: graph-node's fail-fast pauses the deployment at that block. */
export function nonFatalBeforeSyncCase(): ParityCase {
  return {
    name: "non-fatal-before-sync",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "non-fatal"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      await sendApprovals({ rpcUrl: chainUrl, token: deployed.proxy, count: 30, batchSize: 5 });
      await approveWithUnluckyValue(chainUrl, deployed.proxy);
      // More than 10 blocks after it: graph-node counts a deployment synced within 10 blocks of the head.
      await sendApprovals({ rpcUrl: chainUrl, token: deployed.proxy, count: 14, seed: 5 });
      return { address: deployed.proxy, startBlock: deployed.startBlock };
    },
    queries,
  };
}
