// `npm run query` and the listApprovals module against the real local node, indexing the real chain.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
import { buildFor, deployWithGraphCli, startChainWithToken, startNode, type ChainFixture, type NodeFixture } from "../packages/workbench/src/local-node/e2e/harness.js";
import { freePort } from "subgraph-workbench/lib/freePort";
import { sendApprovals } from "../hardhat/deploy/approvals.js";
import { EndpointUnreachableError, UnknownSubgraphError, listApprovals, waitForBlock, type Approval } from "../clients/subgraph/index.js";
import type { BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import { approvalsFromChain } from "./_test/chainApprovals.js";
import { runScript } from "./_test/runScript.js";

const NAME = "test/query-approvals";
let chain: ChainFixture;
let node: NodeFixture;
let built: BuiltSubgraph;
let endpoint: string;
let expected: Approval[];

beforeAll(async () => {
  chain = await startChainWithToken();
  node = await startNode(chain.chain.url);
  built = await buildFor(chain.token);
  await deployWithGraphCli(built, NAME, node.node.urls);
  // A few single approvals from rotating owners, then enough batched ones to need two pages.
  await sendApprovals({ rpcUrl: chain.chain.url, token: chain.token.proxy, count: 12 });
  const sent = await sendApprovals({ rpcUrl: chain.chain.url, token: chain.token.proxy, count: 1100, seed: 7 });
  await waitForBlock({ statusUrl: `${node.node.urls.status}/graphql`, name: NAME, block: sent.lastBlock, timeoutMs: 120_000 });
  endpoint = `${node.node.urls.query}/subgraphs/name/${NAME}`;
  expected = await approvalsFromChain(chain.chain.url, chain.token.proxy);
});

afterAll(async () => {
  await node?.stop();
  await chain?.stop();
  if (built) await rm(built.workDir, { recursive: true, force: true });
});

describe("listApprovals", () => {
  it("pages through more than 1000 approvals and equals the chain's logs, in order", async () => {
    expect(expected.length).toBe(1112);
    let pages = 0;
    const listed = await listApprovals({ endpoint, onPage: () => pages++ });
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(listed).toEqual(expected);
  });

  it("stops at first", async () => {
    expect(await listApprovals({ endpoint, first: 1005, pageSize: 1000 })).toEqual(expected.slice(0, 1005));
  });

  it("filters by owner, spender and minimum value", async () => {
    const owner = expected[3]?.owner ?? "";
    expect(await listApprovals({ endpoint, owner })).toEqual(expected.filter((a) => a.owner === owner));
    const spender = expected[10]?.spender ?? "";
    expect(await listApprovals({ endpoint, spender })).toEqual(expected.filter((a) => a.spender === spender));
    const minValue = 500n * 10n ** 18n;
    const rich = expected.filter((a) => a.value >= minValue);
    expect(rich.length).toBeGreaterThan(0);
    expect(rich.length).toBeLessThan(expected.length);
    expect(await listApprovals({ endpoint, minValue })).toEqual(rich);
  });

  it("names an unreachable endpoint", async () => {
    const port = await freePort();
    await expect(listApprovals({ endpoint: `http://127.0.0.1:${port}/subgraphs/name/x` })).rejects.toBeInstanceOf(EndpointUnreachableError);
  });

  it("names an unknown subgraph", async () => {
    await expect(listApprovals({ endpoint: `${node.node.urls.query}/subgraphs/name/no/such-subgraph` })).rejects.toBeInstanceOf(UnknownSubgraphError);
  });
});

describe("npm run query", () => {
  it("prints one JSON array with --json", async () => {
    const out = await runScript("scripts/query.ts", ["--endpoint", endpoint, "--json"]);
    expect(out.code).toBe(0);
    const parsed = JSON.parse(out.stdout) as { id: string; owner: string; spender: string; value: string }[];
    expect(parsed).toEqual(expected.map((a) => ({ ...a, value: a.value.toString() })));
  });

  it("prints a table with raw values, honouring --first and the filters", async () => {
    const owner = expected[0]?.owner ?? "";
    const mine = expected.filter((a) => a.owner === owner && a.value >= 1n);
    const out = await runScript("scripts/query.ts", ["--endpoint", endpoint, "--first", "3", "--owner", owner, "--min-value", "1"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^id\s+owner\s+spender\s+value$/);
    const rows = lines.slice(2, -1).map((l) => l.split(/\s+/));
    expect(rows).toEqual(mine.slice(0, 3).map((a) => [a.id, a.owner, a.spender, a.value.toString()]));
    expect(lines.at(-1)).toBe("3 approvals");
  });

  it("reads QUERY_URL", async () => {
    const out = await runScript("scripts/query.ts", ["--first", "2", "--json"], { env: { QUERY_URL: endpoint } });
    expect(out.code).toBe(0);
    expect((JSON.parse(out.stdout) as unknown[]).length).toBe(2);
  });

  it("exits 1 with a clear message for a dead endpoint, an unknown subgraph and bad flags", async () => {
    const port = await freePort();
    const dead = await runScript("scripts/query.ts", ["--endpoint", `http://127.0.0.1:${port}/subgraphs/name/x`]);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/Cannot reach the query endpoint/);

    const unknown = await runScript("scripts/query.ts", ["--endpoint", `${node.node.urls.query}/subgraphs/name/no/such-subgraph`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No subgraph is served/);

    const badOwner = await runScript("scripts/query.ts", ["--endpoint", endpoint, "--owner", "0x123"]);
    expect(badOwner.code).toBe(1);
    expect(badOwner.stderr).toMatch(/--owner must be a 0x address/);
  });
});
