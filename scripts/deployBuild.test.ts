// A deploy after a build compiles nothing, checked against graph-cli itself: in a private copy of the
// project, the uploader puts a build folder into the node's IPFS under the very hash `graph build --ipfs`
// prints (for both graph-cli releases the project carries), and `npm run deploy` after `npm run build`
// deploys that build by hash, with no compile step, and the deployment serves the chain's approvals.
import { readFileSync } from "node:fs";
import { rm, utimes } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChainWithToken, startNode, type ChainFixture, type NodeFixture } from "../packages/workbench/src/local-node/e2e/harness.js";
import { ipfsHttpAdder, uploadBuild } from "subgraph-workbench/deploy";
import { builtManifestHash, graphCli, runGraphCli } from "subgraph-workbench/lib/graphCli";
import { buildSubgraph, type BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { sendApprovals } from "../hardhat/deploy/approvals.js";
import { projectRoot } from "../hardhat/projectRoot.js";
import { listApprovals, waitForBlock } from "../clients/subgraph/index.js";
import { approvalsFromChain } from "./_test/chainApprovals.js";
import { runScript } from "./_test/runScript.js";

const GRAPH_CLI_087 = join(projectRoot, "node_modules", "graph-cli-0.87", "bin", "run");
/** What graph-cli prints while it compiles (graph build's steps), absent from a deploy by hash. */
const COMPILE_STEPS = /Compile subgraph|Compile data source|Write compiled subgraph|Build completed|Upload subgraph to IPFS/;

let chain: ChainFixture;
let node: NodeFixture;
/** The copy, built and uploaded by graph-cli (`graph build --ipfs`): its hash is the truth here. */
let built: BuiltSubgraph;
let graphCliHash: string;

beforeAll(async () => {
  chain = await startChainWithToken();
  node = await startNode(chain.chain.url);
  built = await buildSubgraph({ address: chain.token.proxy, startBlock: chain.token.startBlock, network: "localhost", ipfs: node.node.urls.ipfs });
  graphCliHash = built.ipfsHash ?? "";
  await sendApprovals({ rpcUrl: chain.chain.url, token: chain.token.proxy, count: 5 });
});

afterAll(async () => {
  await node?.stop();
  await chain?.stop();
  if (built) await rm(built.workDir, { recursive: true, force: true });
});

/** `npm run deploy` in the copy, to the test's node. */
function deploy(name: string, label: string) {
  return runScript("scripts/deploy.ts", ["--name", name, "--node", node.node.urls.admin, "--ipfs", node.node.urls.ipfs, "--version-label", label], { cwd: built.workDir });
}

describe("uploading a graph-cli build folder", () => {
  it("gives the hash graph build --ipfs printed for the same folder (graph-cli 0.98)", async () => {
    expect(graphCliHash).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(await uploadBuild(built.manifestPath, ipfsHttpAdder(node.node.urls.ipfs), { projectDir: built.workDir })).toBe(graphCliHash);
  });

  it("gives graph-cli 0.87's hash for its build, writing the manifest with that release's js-yaml", async () => {
    const out = await graphCli(["build", "--network", "localhost", "--network-file", "networks.json", "--output-dir", "build-0.87", "--ipfs", node.node.urls.ipfs], { cwd: built.workDir, bin: GRAPH_CLI_087 });
    const hash087 = builtManifestHash(out.stdout + out.stderr);
    expect(hash087).toMatch(/^Qm/);
    const manifest = join(built.workDir, "build-0.87", "subgraph.yaml");
    const ipfs = ipfsHttpAdder(node.node.urls.ipfs);
    expect(await uploadBuild(manifest, ipfs, { graphCliBin: GRAPH_CLI_087 })).toBe(hash087);
    // The same files dumped by 0.98's js-yaml 4 are another deployment: the dumper has to be the release's.
    expect(await uploadBuild(manifest, ipfs, { projectDir: built.workDir })).not.toBe(hash087);
    await rm(join(built.workDir, "build-0.87"), { recursive: true, force: true });
  });
});

describe("npm run deploy after npm run build", () => {
  it("deploys build/ by its hash without compiling, and the subgraph serves the chain's approvals", async () => {
    // The command `npm run build` runs (package.json), in the copy.
    const [bin, ...args] = (JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { scripts: { build: string } }).scripts.build.split(" ");
    expect(bin).toBe("graph");
    const build = await runGraphCli(args, { cwd: built.workDir });
    expect(build.code).toBe(0);

    const out = await deploy("test/deploy-build", "v-build");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^deploying the build in build\/ \(built \d{4}-\d\d-\d\d \d\d:\d\d:\d\d; nothing to compile\)$/m);
    expect(out.stdout).not.toMatch(COMPILE_STEPS);
    expect(out.stdout).toContain(`deployment: ${graphCliHash}`);
    const queryUrl = /query address: (\S+)/.exec(out.stdout)?.[1] ?? "";
    expect(queryUrl).toBe(`${node.node.urls.query}/subgraphs/name/test/deploy-build`);

    const expected = await approvalsFromChain(chain.chain.url, chain.token.proxy);
    expect(expected).toHaveLength(5);
    const head = Number(((await (await fetch(chain.chain.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' })).json()) as { result: string }).result);
    await waitForBlock({ statusUrl: `${node.node.urls.status}/graphql`, name: "test/deploy-build", block: head });
    expect(await listApprovals({ endpoint: queryUrl })).toEqual(expected);
  });

  it("says why and lets graph deploy compile when a source changed after the build", async () => {
    const later = new Date(Date.now() + 5_000);
    await utimes(join(built.workDir, "src", "mapping.ts"), later, later);
    const out = await deploy("test/deploy-stale", "v-stale");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("src/mapping.ts changed after the build in build/: graph deploy builds the subgraph");
    expect(out.stdout).not.toContain("nothing to compile");
    expect(out.stdout).toMatch(/Compile subgraph/);
    // The source's content did not change: graph deploy's own build has the same id.
    expect(out.stdout).toContain(`deployment: ${graphCliHash}`);
  });

  it("lets graph deploy compile when build/ lacks a file its manifest names", async () => {
    // graph deploy rebuilt build/ above; the source goes back before it, and the build loses its WASM.
    const past = new Date(Date.now() - 60_000);
    await utimes(join(built.workDir, "src", "mapping.ts"), past, past);
    await rm(join(built.workDir, "build", "ApprovalToken", "ApprovalToken.wasm"));
    const out = await deploy("test/deploy-broken", "v-broken");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("nothing to compile");
    expect(out.stdout).toMatch(/the build in build\/ cannot be uploaded \(the build's manifest names ApprovalToken\/ApprovalToken\.wasm, which is not in .*\): graph deploy builds the subgraph/);
    expect(out.stdout).toMatch(/Compile subgraph/);
    expect(out.stdout).toContain(`deployment: ${graphCliHash}`);
  });
});
