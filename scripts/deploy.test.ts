// `npm run deploy` with the unmodified graph-cli: to the local node, and to a platform-shaped address
// whose access key must never show in the output.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
import { buildFor, startChainWithToken, startNode, type ChainFixture, type NodeFixture } from "../packages/workbench/src/local-node/e2e/harness.js";
import { freePort } from "subgraph-workbench/lib/freePort";
import { sendApprovals } from "../hardhat/deploy/approvals.js";
import { listApprovals, waitForBlock } from "../clients/subgraph/index.js";
import type { BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { runScript } from "./_test/runScript.js";
import { startPlatformGateway, type PlatformGateway } from "./_test/platformGateway.js";

const KEY = "k3y0f7h3us3r5ecr3t9a8b7c6d";
let chain: ChainFixture;
let node: NodeFixture;
let built: BuiltSubgraph;
let gateway: PlatformGateway;

beforeAll(async () => {
  chain = await startChainWithToken();
  node = await startNode(chain.chain.url);
  built = await buildFor(chain.token);
  gateway = await startPlatformGateway(KEY, node.node.urls);
  await sendApprovals({ rpcUrl: chain.chain.url, token: chain.token.proxy, count: 5 });
});

afterAll(async () => {
  await gateway?.close();
  await node?.stop();
  await chain?.stop();
  if (built) await rm(built.workDir, { recursive: true, force: true });
});

describe("npm run deploy", () => {
  it("deploys to the local node, prints the query address, and the subgraph indexes", async () => {
    const out = await runScript("scripts/deploy.ts", ["--name", "test/deployed", "--node", node.node.urls.admin, "--ipfs", node.node.urls.ipfs, "--version-label", "v-test"], { cwd: built.workDir });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const queryUrl = /query address: (\S+)/.exec(out.stdout)?.[1] ?? "";
    expect(queryUrl).toBe(`${node.node.urls.query}/subgraphs/name/test/deployed`);
    expect(out.stdout).toMatch(/deployment: Qm[1-9A-HJ-NP-Za-km-z]{44}/);
    const head = Number(await (await fetch(chain.chain.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' })).json().then((r) => (r as { result: string }).result));
    await waitForBlock({ statusUrl: `${node.node.urls.status}/graphql`, name: "test/deployed", block: head });
    expect(await listApprovals({ endpoint: queryUrl })).toHaveLength(5);
  });

  it("deploys through platform-style addresses without ever printing the access key", async () => {
    const out = await runScript("scripts/deploy.ts", ["--name", "test/deployed", "--version-label", "v-platform"], {
      cwd: built.workDir,
      env: { DEPLOY_URL: gateway.deployUrl, IPFS_URL: gateway.ipfsUrl },
    });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(gateway.seen.some((p) => p === `/${KEY}/deploy`)).toBe(true);
    expect(gateway.seen.some((p) => p.startsWith(`/${KEY}/ipfs/add`))).toBe(true);
    expect(out.stdout + out.stderr).not.toContain(KEY);
    expect(out.stdout).toContain("/***/deploy");
    // The copy's build is current: uploaded through the platform's IPFS address, not compiled again.
    expect(out.stdout).toContain("nothing to compile");
  });

  it("fails clearly, still masking the key, when the platform does not answer", async () => {
    const port = await freePort();
    const out = await runScript("scripts/deploy.ts", ["--name", "test/deployed"], {
      cwd: built.workDir,
      env: { DEPLOY_URL: `http://127.0.0.1:${port}/${KEY}/deploy`, IPFS_URL: `http://127.0.0.1:${port}/${KEY}/ipfs` },
    });
    expect(out.code).toBe(1);
    // The current build's upload is the first to reach the platform.
    expect(out.stderr).toMatch(/^error: the IPFS API at http:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ipfs is unreachable \(ECONNREFUSED\)/);
    expect(out.stdout + out.stderr).not.toContain(KEY);
  });

  it("refuses half a platform configuration", async () => {
    const out = await runScript("scripts/deploy.ts", [], { cwd: built.workDir, env: { DEPLOY_URL: gateway.deployUrl } });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/set both DEPLOY_URL and IPFS_URL/);
    expect(out.stderr).not.toContain(KEY);
  });
});
