// A deterministic handler failure: a fixture subgraph (local-node/e2e/_test/failing) aborts on an
// approval of exactly 13. The deployment is marked failed with the error text, block and handler;
// what was indexed before stays queryable, and `_meta.hasIndexingErrors` says so.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Contract } from "ethers";
import { readArtifact } from "../../../../../hardhat/deploy/artifacts.js";
import { connectChain } from "../../../../../hardhat/deploy/signers.js";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import type { BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { backends, buildFor, deployWithGraphCli, graphql, startChainWithToken, startNode, waitForStatus, type ChainFixture, type NodeFixture } from "./harness.js";

// graph-cli builds and real chains: generous limits for a loaded 2-core CI machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const fixture = join(fileURLToPath(new URL(".", import.meta.url)), "_test", "failing");
let fx: ChainFixture;
let built: BuiltSubgraph;
let failingBlock = 0;

beforeAll(async () => {
  fx = await startChainWithToken();
  built = await buildFor(fx.token, fixture);
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 40, batchSize: 10 });
  // The poisoned approval, then one more that is never indexed.
  const { provider, signers } = await connectChain(fx.chain.url);
  const token = new Contract(fx.token.proxy, (await readArtifact("ApprovalToken")).abi, signers[3]);
  const tx = (await token.getFunction("approve")("0x0000000000000000000000000000000000000013", 13n)) as { wait(): Promise<{ blockNumber: number }> };
  failingBlock = (await tx.wait()).blockNumber;
  provider.destroy();
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 3, seed: 9 });
});
afterAll(async () => {
  await fx?.stop();
});

describe.each(backends())("a failing handler on %s", (backend) => {
  let node: NodeFixture;
  const name = `e2e/failing-${backend}`;

  beforeAll(async () => {
    node = await startNode(fx.chain.url, backend);
    await deployWithGraphCli(built, name, node.node.urls);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("marks the deployment failed with the error, keeps earlier data queryable", async () => {
    const status = await waitForStatus(node.node.urls.status, name, (s) => s.health === "failed");
    expect(status.fatalError?.message).toContain("unlucky approval value 13");
    // As graph-node's status API (checked against it by the parity suite): the handler is in the message.
    expect(status.fatalError?.handler).toBeNull();
    expect(status.fatalError?.message).toMatch(new RegExp(`with message: unlucky approval value 13 in handler \`ApprovalHandler\` at block #${failingBlock} \\([0-9a-f]{64}\\)$`));
    expect(Number(status.fatalError?.block?.number)).toBe(failingBlock);
    const queryUrl = `${node.node.urls.query}/subgraphs/name/${name}`;
    // As graph-node: the default (subgraphError: deny) answers the indexing error instead of data...
    const denied = await graphql(queryUrl, "{ approvalQueries(first: 1000) { value } }");
    expect(denied.errors?.[0]?.message).toBe("indexing_error");
    // ...`allow` answers the data indexed so far beside the error, and `_meta` the error flag. Asked
    // apart: graph-node denies a group of root fields when any lacks `allow`, and `_meta` takes none.
    const r = await graphql<{ approvalQueries: { value: string }[] }>(queryUrl, "{ approvalQueries(first: 1000, subgraphError: allow) { value } }");
    expect(r.errors).toEqual([{ message: "indexing_error" }]);
    expect(r.data?.approvalQueries).toHaveLength(40);
    expect(r.data?.approvalQueries.some((a) => a.value === "13")).toBe(false);
    const meta = await graphql<{ _meta: { hasIndexingErrors: boolean } }>(queryUrl, "{ _meta { hasIndexingErrors } }");
    expect(meta.errors).toBeUndefined();
    expect(meta.data?._meta.hasIndexingErrors).toBe(true);
    // ...and a block before the failure answers normally.
    const earlier = await graphql<{ approvalQueries: unknown[] }>(queryUrl, `{ approvalQueries(first: 1000, block: {number: ${failingBlock - 1}}) { id } }`);
    expect(earlier.errors).toBeUndefined();
    expect(earlier.data?.approvalQueries).toHaveLength(40);
    expect(node.logs.some((l) => l.includes("unlucky approval value 13"))).toBe(true);
  });
});
