// The admin API's semantics on both engines (graph-node's JSON-RPC on port 8020): pause and resume,
// reassigning a deployment to another node and back, removing the name, and the answers to calls
// that name what does not exist. Compared: each call's answer, and the status fields the call changes
// (paused, node, latest block), read by deployment id, after new blocks came while it took effect.
import { setTimeout as sleep } from "node:timers/promises";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { adminCall, adminStatus, type AdminStatus } from "subgraph-workbench/parity";
import type { Engine } from "subgraph-workbench/parity";
import { postGraphQL } from "subgraph-workbench/parity";
import { readDeploymentId, waitUntilSettled } from "subgraph-workbench/parity";
import type { AdminContext, ParityCase } from "subgraph-workbench/parity";
import { buildSubgraph, type BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";

/** A well-formed deployment id that neither engine has. */
const UNKNOWN_DEPLOYMENT = `QmUnknown${"Z".repeat(37)}`;
/** The name `gnd dev` gives the first manifest it deploys. */
const GND_DEV_NAME = "subgraph-0";
/** How long a paused or unassigned deployment is watched for blocks it must not index. */
const QUIET_MS = 4_000;

export function adminCase(): ParityCase {
  let token = "";
  let startBlock = 0;
  let seed = 100;
  return {
    name: "admin",
    projectDir: projectRoot,
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      startBlock = deployed.startBlock;
      await sendApprovals({ rpcUrl: chainUrl, token, count: 4, batchSize: 2, seed: 1 });
      return { address: token, startBlock: deployed.startBlock };
    },
    async adminSteps(context) {
      const mine = (count: number) => sendApprovals({ rpcUrl: context.chainUrl, token, count, seed: seed++ });
      const switchBuild = () => buildSubgraph({ projectDir: projectRoot, address: token, startBlock: startBlock + 1, network: "localhost" });
      return adminScenario(context, mine, switchBuild);
    },
  };
}

async function adminScenario({ local, graphNode, chainUrl, deployOnBoth }: AdminContext, mine: (count: number) => Promise<unknown>, switchBuild: () => Promise<BuiltSubgraph>): Promise<[string, unknown, unknown][]> {
  const engines: [Engine, Engine] = [local, graphNode];
  let ids: [string, string] = [await readDeploymentId(local), await readDeploymentId(graphNode)];
  const switchVersion = async () => deployOnBoth(await switchBuild(), local.name);
  const out: [string, unknown, unknown][] = [];
  const both = async <T>(call: (engine: Engine, id: string, i: number) => Promise<T>): Promise<[T, T]> => [await call(local, ids[0], 0), await call(graphNode, ids[1], 1)];
  const record = async (subject: string, call: (engine: Engine, id: string, i: number) => Promise<unknown>) => {
    const [l, g] = await both(call);
    out.push([subject, l, g]);
  };
  const status = (engine: Engine, id: string) => adminStatus(engine, id);
  const until = async (test: (s: AdminStatus) => boolean) => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const states = await both(status);
      if (states.every((s) => !("error" in s) && test(s))) return;
      await sleep(250);
    }
  };
  const settled = () => waitUntilSettled(engines, chainUrl);

  await record("pause", (e, id) => adminCall(e, "subgraph_pause", { deployment: id }));
  await until((s) => s.paused === true);
  await mine(2);
  await sleep(QUIET_MS);
  await record("paused.status", status);
  await record("resume", (e, id) => adminCall(e, "subgraph_resume", { deployment: id }));
  await settled();
  await record("resumed.status", status);

  const homes = await both(async (e, id) => {
    const s = await status(e, id);
    return "error" in s ? null : s.node;
  });
  await record("reassign", (e, id) => adminCall(e, "subgraph_reassign", { ipfs_hash: id, node_id: "elsewhere" }));
  await until((s) => s.node === "elsewhere");
  await mine(1);
  await sleep(QUIET_MS);
  await record("reassigned.status", status);
  await record("reassign.back", (e, id, i) => adminCall(e, "subgraph_reassign", { ipfs_hash: id, node_id: homes[i] }));
  await settled();
  await record("reassigned.back.status", status);

  // gnd dev also serves its deployment as `subgraph-0`, a name of its own: removed here (not compared),
  // so that on both engines the case's name is the only one that uses the deployment.
  await adminCall(graphNode, "subgraph_remove", { name: GND_DEV_NAME });
  await record("pause.unknown", (e) => adminCall(e, "subgraph_pause", { deployment: UNKNOWN_DEPLOYMENT }));
  await record("resume.unknown", (e) => adminCall(e, "subgraph_resume", { deployment: UNKNOWN_DEPLOYMENT }));
  await record("reassign.unknown", (e) => adminCall(e, "subgraph_reassign", { ipfs_hash: UNKNOWN_DEPLOYMENT, node_id: "elsewhere" }));
  await record("remove.unknownName", (e) => adminCall(e, "subgraph_remove", { name: "parity/no-such-name" }));
  await record("deploy.uncreatedName", (e, id) => adminCall(e, "subgraph_deploy", { name: "parity/never-created", ipfs_hash: id }));

  // A new version of the name (the same subgraph from a later start block): graph-node's default
  // (instant) switching serves it at once, and the displaced deployment is unassigned.
  await switchVersion();
  await record("switched.pending", (e) => postGraphQL(e.statusUrl, `{ s: indexingStatusForPendingVersion(subgraphName: "${e.name}") { synced } }`));
  await record("switched.old.status", status);
  ids = [await readDeploymentId(local), await readDeploymentId(graphNode)];
  await settled();
  await record("switched.current.status", status);
  await record("switched.query", (e) => postGraphQL(e.queryUrl, "{ approvalQueries(first: 1000, orderBy: id) { id owner spender value } }"));
  // Equal answers must also be the ones meant: the steps took effect (not, say, two equal errors).
  expectLocal(out, "paused.status", (s) => (s as AdminStatus).paused === true);
  expectLocal(out, "reassigned.status", (s) => (s as AdminStatus).node === "elsewhere");
  expectLocal(out, "switched.old.status", (s) => (s as AdminStatus).node === null);
  expectLocal(out, "switched.query", (a) => ((a as { data?: { approvalQueries?: unknown[] } }).data?.approvalQueries?.length ?? 0) > 0);

  await record("remove", (e) => adminCall(e, "subgraph_remove", { name: e.name }));
  await until((s) => s.node === null);
  await record("removed.status", status);
  await record("removed.query", (e) => postGraphQL(e.queryUrl, "{ _meta { block { number } } }"));
  await record("removed.byName", (e) => postGraphQL(e.statusUrl, `{ s: indexingStatusForCurrentVersion(subgraphName: "${e.name}") { synced } }`));
  return out;
}

function expectLocal(out: [string, unknown, unknown][], subject: string, test: (answer: unknown) => boolean): void {
  const answer = out.find(([s]) => s === subject)?.[1];
  if (!test(answer)) throw new Error(`admin case: step ${subject} did not take effect on the local node: ${JSON.stringify(answer)}`);
}
