// The unmodified graph-cli against the node's admin and IPFS servers: `graph create`, `graph deploy`
// (which builds, uploads every file over /api/v0/add + pin/add, then calls subgraph_deploy) and
// `graph remove`, on the project's own subgraph built into a temp dir.
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { runGraphCli, stripAnsi } from "../../lib/graphCli.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { createIpfsServer } from "../ipfs/ipfsServer.js";
import { createIpfsStore } from "../ipfs/ipfsStore.js";
import type { IpfsStore, RunningServer } from "../ipfs/types.js";
import { topic0Of } from "../manifest/abiEvents.js";
import type { LoadedDeployment } from "../manifest/types.js";
import { createNodeStore } from "../store/nodeStore.js";
import type { NodeStore } from "../store/types.js";
import { createAdminServer } from "./adminServer.js";
import type { RunningAdminServer } from "./types.js";

const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const QUERY_PORT = 18123;

let built: BuiltSubgraph;
let store: NodeStore;
let ipfs: IpfsStore;
let ipfsServer: RunningServer;
let admin: RunningAdminServer;
const deploys: { loaded: LoadedDeployment; name: string; versionLabel: string | null }[] = [];
let firstHash = "";

beforeAll(async () => {
  built = await buildSubgraph({ address: TOKEN, startBlock: 3 });
  store = await createNodeStore({});
  ipfs = await createIpfsStore();
  ipfsServer = await createIpfsServer({ ipfs, port: 0 });
  admin = await createAdminServer({
    store,
    ipfs,
    port: 0,
    queryPort: QUERY_PORT,
    onDeploy: async (loaded, name, versionLabel) => void deploys.push({ loaded, name, versionLabel }),
  });
});

afterAll(async () => {
  await admin?.close();
  await ipfsServer?.close();
  await store?.close();
  if (built) await rm(built.workDir, { recursive: true, force: true });
});

async function graph(args: string[]): Promise<{ code: number; text: string }> {
  const result = await runGraphCli(args, { cwd: built.workDir });
  return { code: result.code, text: stripAnsi(result.stdout + result.stderr) };
}

describe("graph-cli 0.98.1 against the admin and IPFS servers", () => {
  it("graph create + graph deploy --version-label v1 deploy the project's subgraph", async () => {
    const created = await graph(["create", "--node", admin.url, "approvals/e2e"]);
    expect(created.code, created.text).toBe(0);
    expect(created.text).toContain("Created subgraph: approvals/e2e");

    const deployed = await graph(["deploy", "--node", admin.url, "--ipfs", ipfsServer.url, "approvals/e2e", "--version-label", "v1"]);
    expect(deployed.code, deployed.text).toBe(0);
    expect(deployed.text).toContain(`Deployed to http://127.0.0.1:${QUERY_PORT}/subgraphs/name/approvals/e2e/graphql`);
    expect(deployed.text).toContain(`Queries (HTTP):     http://127.0.0.1:${QUERY_PORT}/subgraphs/name/approvals/e2e`);
    const hash = /Build completed: (Qm\w+)/.exec(deployed.text)?.[1];
    expect(hash).toBeDefined();
    firstHash = hash!;

    // The node got the deployment graph-cli built, resolved from IPFS.
    expect(deploys).toHaveLength(1);
    const { loaded, name, versionLabel } = deploys[0]!;
    expect({ id: loaded.id, name, versionLabel }).toEqual({ id: hash, name: "approvals/e2e", versionLabel: "v1" });
    const [ds] = loaded.dataSources;
    expect(ds).toMatchObject({ name: "ApprovalToken", network: "localhost", address: TOKEN.toLowerCase(), startBlock: 3, apiVersion: "0.0.7" });
    expect(ds?.eventHandlers.map((h) => ({ handler: h.handler, topic0: h.topic0 }))).toEqual([
      { handler: "ApprovalHandler", topic0: topic0Of("Approval(address,address,uint256)") },
    ]);
    expect(await store.resolveName("approvals/e2e")).toBe(hash);

    // graph-cli uploaded the files the build wrote; the CIDs in the manifest are Kubo's for those bytes.
    const manifest = parseYaml(loaded.manifestYaml) as { dataSources: { mapping: { file: { "/": string } } }[] };
    const wasmCid = manifest.dataSources[0]!.mapping.file["/"].replace("/ipfs/", "");
    const wasmOnDisk = await readFile(join(built.buildDir, "ApprovalToken", "ApprovalToken.wasm"));
    expect(await (await createIpfsStore()).add(wasmOnDisk)).toBe(wasmCid);
    expect(await ipfs.isPinned(wasmCid)).toBe(true);
    expect(await ipfs.isPinned(hash!)).toBe(true);
  });

  it("shows graph-node's error text when deploying to a name that was never created (deploy --ipfs-hash: cat + pin)", async () => {
    const deployed = await graph(["deploy", "--node", admin.url, "--ipfs", ipfsServer.url, "--ipfs-hash", firstHash, "approvals/never-created", "--version-label", "v1"]);
    expect(deployed.code).toBe(1);
    expect(deployed.text).toContain(`Failed to deploy to Graph node ${admin.url}/: subgraph name not found: approvals/never-created`);
  });

  it("graph deploy --ipfs-hash redeploys a stored build to a second name", async () => {
    expect((await graph(["create", "--node", admin.url, "approvals/second"])).code).toBe(0);
    const deployed = await graph(["deploy", "--node", admin.url, "--ipfs", ipfsServer.url, "--ipfs-hash", firstHash, "approvals/second", "--version-label", "v2"]);
    expect(deployed.code, deployed.text).toBe(0);
    expect(await store.resolveName("approvals/second")).toBe(firstHash);
    expect(deploys.at(-1)).toMatchObject({ name: "approvals/second", versionLabel: "v2", loaded: { id: firstHash } });
  });

  it("graph remove removes the name", async () => {
    await graph(["create", "--node", admin.url, "approvals/removed"]);
    expect(await store.subgraphExists("approvals/removed")).toBe(true);
    const removed = await graph(["remove", "--node", admin.url, "approvals/removed"]);
    expect(removed.code, removed.text).toBe(0);
    expect(await store.subgraphExists("approvals/removed")).toBe(false);
  });

  it("graph create reports an invalid name with graph-node's params error", async () => {
    const created = await graph(["create", "--node", admin.url, "bad name!"]);
    expect(created.text).toContain('Invalid params: invalid value: string "bad name!", expected valid subgraph name');
  });
});
