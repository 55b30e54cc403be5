// The admin API's semantics on both engines (graph-node's JSON-RPC on port 8020): pause and resume,
// reassigning a deployment to another node and back, removing the name, and the answers to calls
// that name what does not exist. Compared: each call's answer, and the status fields the call changes
// (paused, node, latest block), read by deployment id, after new blocks came while it took effect.
import { deployApprovalToken, sendApprovals } from "../../hardhat/deploy/index.js";
import { projectRoot } from "../../lib/projectRoot.js";
import { adminCall, adminStatus, type AdminStatus } from "../admin.js";
import type { Engine } from "../engines.js";
import { postGraphQL } from "../graphql.js";
import { readDeploymentId, waitUntilSettled } from "../status.js";
import type { ParityCase, SettleContext } from "../types.js";

/** A well-formed deployment id that neither engine has. */
const UNKNOWN_DEPLOYMENT = `QmUnknown${"Z".repeat(37)}`;
/** The name `gnd dev` gives the first manifest it deploys. */
const GND_DEV_NAME = "subgraph-0";
/** How long a paused or unassigned deployment is watched for blocks it must not index. */
const QUIET_MS = 4_000;

export function adminCase(): ParityCase {
  let token = "";
  let seed = 100;
  return {
    name: "admin",
    projectDir: projectRoot,
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      await sendApprovals({ rpcUrl: chainUrl, token, count: 4, batchSize: 2, seed: 1 });
      return { address: token, startBlock: deployed.startBlock };
    },
    async adminSteps(context) {
      const mine = (count: number) => sendApprovals({ rpcUrl: context.chainUrl, token, count, seed: seed++ });
      return adminScenario(context, mine);
    },
  };
}

async function adminScenario({ local, graphNode, chainUrl }: SettleContext, mine: (count: number) => Promise<unknown>): Promise<[string, unknown, unknown][]> {
  const engines: [Engine, Engine] = [local, graphNode];
  const ids = [await readDeploymentId(local), await readDeploymentId(graphNode)] as const;
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

  await record("pause.unknown", (e) => adminCall(e, "subgraph_pause", { deployment: UNKNOWN_DEPLOYMENT }));
  await record("resume.unknown", (e) => adminCall(e, "subgraph_resume", { deployment: UNKNOWN_DEPLOYMENT }));
  await record("reassign.unknown", (e) => adminCall(e, "subgraph_reassign", { ipfs_hash: UNKNOWN_DEPLOYMENT, node_id: "elsewhere" }));
  await record("remove.unknownName", (e) => adminCall(e, "subgraph_remove", { name: "parity/no-such-name" }));
  await record("deploy.uncreatedName", (e, id) => adminCall(e, "subgraph_deploy", { name: "parity/never-created", ipfs_hash: id }));

  // gnd dev also serves its deployment as `subgraph-0`, a name of its own: removed first (not compared),
  // so that on both engines the case's name is the only one that used the deployment.
  await adminCall(graphNode, "subgraph_remove", { name: GND_DEV_NAME });
  await record("remove", (e) => adminCall(e, "subgraph_remove", { name: e.name }));
  await until((s) => s.node === null);
  await record("removed.status", status);
  await record("removed.query", (e) => postGraphQL(e.queryUrl, "{ _meta { block { number } } }"));
  await record("removed.byName", (e) => postGraphQL(e.statusUrl, `{ s: indexingStatusForCurrentVersion(subgraphName: "${e.name}") { synced } }`));
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
